import CMicroHTTPD

/// What napkin refuses in a request head that libmicrohttpd lets through,
/// checked once the head has arrived and before any body is read.
///
/// - `Content-Length` together with `Transfer-Encoding`, or two
///   `Content-Length` fields: `400`. Two parsers may frame such a body
///   differently (request smuggling); RFC 9112 §6.1 says to close.
/// - A transfer coding other than `chunked`: `501`, instead of reading a
///   body whose end cannot be found until the connection times out.
/// - An HTTP/1.1 request without exactly one `Host`, or any request with
///   more than one: `400` (RFC 9112 §3.2).
/// - A head longer than ``limit``: `431`. The head and the answer's own
///   head share the connection's memory pool, and libmicrohttpd closes in
///   silence when an answer's head does not fit: so an answer to a head
///   that leaves too little room goes straight to the socket
///   (``Refusal/direct``).
///
/// Each refusal closes the connection.
struct RequestHeadCheck {
    /// A request napkin does not serve, and how it is answered.
    struct Refusal {
        var response: Response
        /// Written to the socket by napkin: the pool has no room for its head.
        var direct = false
    }

    /// The longest request head served, in bytes.
    let limit: Int
    /// Heads longer than this are answered straight on the socket.
    private let roomy: Int

    /// The head limit for libmicrohttpd connection pools of `memoryLimit`
    /// bytes: what is left once an answer's own head (napkin's security
    /// headers run to about 600 bytes) has room.
    init(memoryLimit: Int) {
        limit = max(1024, memoryLimit - 2048)
        roomy = max(limit, memoryLimit - 1024)
    }

    /// The refusal for the head of `connection` (`version` from its request
    /// line), or nil to serve it.
    func refusal(_ connection: OpaquePointer, version: UnsafePointer<CChar>?) -> Refusal? {
        let size = napkin_request_head_size(connection)
        if size > limit {
            var refusal = Self.refuse(HTTPStatus(code: 431), "Request Header Fields Too Large")
            refusal.direct = size > roomy
            return refusal
        }
        let fields = Fields(connection)
        if fields.contentLengths > 1 || (fields.contentLengths > 0 && fields.transferCodings > 0) {
            return Self.refuse(.badRequest, "Bad Request: the body's length is given twice")
        }
        if fields.transferCodings > 0, fields.transferCodings != 1 || !fields.chunked {
            return Self.refuse(.notImplemented, "Not Implemented: the only transfer coding accepted is chunked")
        }
        let http11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        if fields.hosts > 1 || (http11 && fields.hosts == 0) {
            return Self.refuse(.badRequest, "Bad Request: an HTTP/1.1 request names exactly one Host")
        }
        return nil
    }

    private static func refuse(_ status: HTTPStatus, _ reason: String) -> Refusal {
        var response = Response.text(reason, status: status)
        response.headers["Connection"] = "close"
        return Refusal(response: response)
    }

    /// The header fields the checks count, read in one pass.
    private struct Fields {
        var hosts = 0
        var contentLengths = 0
        /// Transfer codings named, over all the fields.
        var transferCodings = 0
        /// The last transfer coding named was `chunked`.
        var chunked = false

        init(_ connection: OpaquePointer) {
            withUnsafeMutablePointer(to: &self) { pointer in
                _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                    guard let cls, let key else { return MHDResult.yes }
                    let fields = cls.assumingMemoryBound(to: Fields.self)
                    if strcasecmp(key, "Host") == 0 {
                        fields.pointee.hosts += 1
                    } else if strcasecmp(key, "Content-Length") == 0 {
                        fields.pointee.contentLengths += 1
                    } else if strcasecmp(key, "Transfer-Encoding") == 0 {
                        fields.pointee.count(codingsIn: value)
                    }
                    return MHDResult.yes
                }, pointer)
            }
        }

        private mutating func count(codingsIn value: UnsafePointer<CChar>?) {
            guard let value else { return }
            let chunked: StaticString = "chunked"
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value))
            ASCIIBytes.forEachPart(of: bytes, separatedBy: UInt8(ascii: ",")) { part in
                transferCodings += 1
                self.chunked = ASCIIBytes.equalIgnoringCase(bytes.slice(part), UnsafeBufferPointer(start: chunked.utf8Start, count: chunked.utf8CodeUnitCount))
                return true
            }
        }
    }
}
