/// An HTTP request as handlers see it: already parsed, decoded and bounded.
///
/// It is a value type so middleware can adjust a copy (add route parameters,
/// rewrite the path) without affecting anyone else, and so in-process test
/// clients can build one without a socket.
public struct Request: Sendable {
    /// The request method; `HEAD` requests reach `GET` routes through ``HTTPRouter``.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string.
    public var path: String
    /// The path exactly as sent (still percent-encoded), for code that must tell `%2f` from `/`.
    public var rawPath: String
    /// Query parameters, decoded (`+` is a space); when a name repeats, the last value wins.
    public var query: [String: String]
    /// The request header fields, looked up case-insensitively.
    public var headers: HTTPHeaders
    /// The request body, never longer than the server's `maxRequestBodySize`.
    public var body: [UInt8]
    /// A `multipart/form-data` body, as the server received it: its text
    /// fields, and its files already in temporary files that are removed
    /// when the request ends. ``body`` is then empty.
    public var multipart: MultipartForm?
    /// The client address as `host:port`, when known.
    public var peer: String?
    /// Route parameters filled by ``HTTPRouter``; a trailing wildcard's match is under `"*"`.
    public var parameters: [String: String] = [:]
    /// The answer the server gave this request itself, without asking the
    /// app (a refused head, a body past its limit, a full server), or nil.
    /// A responder answers such a request with it at once, finished by its
    /// middleware (``HTTPRouter`` does), and runs no route.
    public internal(set) var serverAnswer: Response?
    /// The request's id, when ``AccessLog`` gives ids (see ``RequestIDs``):
    /// the `X-Request-ID` it also sets on the request and its response.
    public internal(set) var id: String?
    /// When the request was made (``MonotonicNanoseconds``): by the server,
    /// once the request had arrived whole. The access log and the request
    /// metrics time the request from here, so that each need not read the
    /// clock again.
    package var arrival: UInt64 = MonotonicNanoseconds.now()

    /// The cookies of the `Cookie` header, by name.
    public var cookies: [String: String] {
        var all: [String: String] = [:]
        for value in headers.values(for: "Cookie") {
            all.merge(Cookie.parse(header: value)) { _, new in new }
        }
        return all
    }

    /// The value of the cookie `name` (the last, if the client sent it more
    /// than once), found without building ``cookies``: a page request looks
    /// up one or two. Names match byte for byte, as on the wire (keys of
    /// ``cookies`` are `String`s, which also equate canonically equivalent
    /// spellings).
    public func cookie(_ name: String) -> String? {
        var found: String?
        for field in headers where HTTPHeaders.same(field.name, "Cookie") {
            if let last = Cookie.value(named: name, inHeader: field.value) { found = last }
        }
        return found
    }

    /// A request from already-decoded parts.
    public init(method: HTTPMethod, path: String, query: [String: String] = [:], headers: HTTPHeaders = [:], body: [UInt8] = [], peer: String? = nil) {
        self.init(method: method, path: path, rawPath: path, query: query, headers: headers, body: body, peer: peer)
    }

    /// A request as the server parsed it: `rawPath` is the path as sent.
    init(method: HTTPMethod, path: String, rawPath: String, query: [String: String], headers: HTTPHeaders, body: [UInt8], peer: String?) {
        self.method = method
        self.path = path
        self.rawPath = rawPath
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// A request from a request target such as `/a/b?x=1`, decoded as the server would.
    /// In-process test clients use it to exercise exactly the server's parsing.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        let (raw, path, query) = Request.parseTarget(target)
        self.method = method
        self.path = path
        self.rawPath = raw
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = nil
    }

    /// Splits a request target into raw path, decoded path and decoded query (malformed query pairs are skipped).
    static func parseTarget(_ target: String) -> (raw: String, path: String, query: [String: String]) {
        // Searched as bytes: a `?` or `#` followed by a combining mark is not
        // that Character, but it is still the delimiter.
        let utf8 = target.utf8
        let q = utf8.firstIndex(of: UInt8(ascii: "?"))
        var rawEnd = q ?? utf8.endIndex
        if let hash = utf8[..<rawEnd].firstIndex(of: UInt8(ascii: "#")) { rawEnd = hash }
        // The common target, a plain path: the same string three times over.
        let raw = rawEnd == utf8.endIndex ? target : String(Substring(utf8[..<rawEnd]))
        let path = raw.utf8.contains(UInt8(ascii: "%")) ? URLEncoding.decodeLenient(Substring(raw).utf8) : raw
        var query: [String: String] = [:]
        if let q {
            for pair in utf8[utf8.index(after: q)...].split(separator: UInt8(ascii: "&")) {
                let fields = (try? URLEncoding.parseForm(pair)) ?? []
                for field in fields { query[field.name] = field.value }
            }
        }
        return (raw, path, query)
    }
}
