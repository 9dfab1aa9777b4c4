import Foundation
import NapkinHTTP
import NapkinWeb

/// A browser for tests: it keeps cookies, submits forms the way a browser
/// would, follows redirects after posts, reads live patches and dumps the
/// session's napkin tree.
///
/// The same API runs in two modes:
///
/// ```swift
/// let client = TestClient(inProcess: router)        // the whole pipeline, no sockets
/// let client = TestClient(live: server.port)        // a real server on 127.0.0.1
///
/// let page = try await client.get("/")
/// let signedIn = try await client.submit(page, button: "Login", fields: ["name": "Ada"])
/// #expect(signedIn.text.contains("Ada"))
/// ```
public actor TestClient {
    private let transport: any TestTransport
    private let host: String

    /// The cookies the app has set, by name.
    public private(set) var cookies: [String: String] = [:]

    /// A client that calls `responder` in-process.
    public init(inProcess responder: any HTTPResponder) {
        transport = InProcessTransport(responder: responder)
        host = "napkin.test"
    }

    /// A client of the server listening on `127.0.0.1:port`.
    public init(live port: Int) {
        transport = LiveTransport(port: port)
        host = "127.0.0.1:\(port)"
    }

    /// A client over any transport.
    public init(transport: any TestTransport, host: String = "napkin.test") {
        self.transport = transport
        self.host = host
    }

    /// The napkin session id, once the app has set one.
    public var sessionID: String? { cookies["napkin_session"] }

    /// Sets a cookie by hand (to forge one, say).
    public func setCookie(_ name: String, _ value: String?) {
        cookies[name] = value
    }

    // MARK: - Requests

    /// Sends one request with the client's cookies; does not follow redirects.
    public func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) async throws -> TestResponse {
        let response = try await exchange(method, target, headers: headers, body: body)
        var bytes: [UInt8] = []
        let body = response.body
        bytes = try await withDeadline(
            Self.responseTimeout, TestClientError.noResponse("the body of \(method) \(target)", within: Self.responseTimeout)
        ) {
            var bytes: [UInt8] = []
            for try await chunk in body.chunks() { bytes += chunk }
            return bytes
        }
        return TestResponse(status: response.status.code, headers: response.headers, body: bytes)
    }

    /// `GET target`.
    public func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(.get, target, headers: headers)
    }

    /// Posts `fields` as `application/x-www-form-urlencoded`.
    public func post(_ target: String, form fields: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        let body = fields.map { "\(LiveTransport.percentEncode($0.0))=\(LiveTransport.percentEncode($0.1))" }.joined(separator: "&")
        return try await send(.post, target, headers: headers, body: Array(body.utf8))
    }

    /// Posts `value` as JSON.
    public func post(_ target: String, json value: some Encodable, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send(.post, target, headers: headers, body: Array(try JSONEncoder().encode(value)))
    }

    /// Follows a redirect with `GET`, as a browser does after a post.
    public func follow(_ response: TestResponse) async throws -> TestResponse {
        guard (300..<400).contains(response.status), let location = response.headers["Location"] else { return response }
        return try await get(location)
    }

    // MARK: - Forms

    /// Submits the form of `page` that has the button `button`, with its
    /// fields filled from the page and overridden by `fields`.
    ///
    /// Without JavaScript (the default) it posts like a plain browser and
    /// follows the `303` back to the page. With `javascript: true` it posts
    /// like napkin's client (`X-Napkin: 1`, `X-CSRF-Token`) and returns the
    /// `204`.
    public func submit(
        _ page: TestResponse, button: String, fields: [String: String] = [:], javascript: Bool = false
    ) async throws -> TestResponse {
        guard let form = page.form(withButton: button) else {
            throw TestClientError.noSuchForm(button: button, available: page.forms.flatMap { $0.buttons.map(\.text) })
        }
        var values = form.fields.map { (name: $0.name, value: fields[$0.name] ?? $0.value) }
        for (name, value) in fields where !values.contains(where: { $0.name == name }) {
            values.append((name, value))
        }
        if let pressed = form.buttons.first(where: { $0.text == button }), let name = pressed.name {
            values.append((name, pressed.value ?? ""))
        }
        var headers: HTTPHeaders = ["Origin": "http://\(host)"]
        if javascript {
            headers["X-Napkin"] = "1"
            headers["X-CSRF-Token"] = form.value(of: "_csrf") ?? ""
        }
        let response = try await post(form.action, form: values.map { ($0.name, $0.value) }, headers: headers)
        return javascript ? response : try await follow(response)
    }

    // MARK: - Live updates and the tree

    /// Opens the session's event stream, to read patches as they arrive.
    public func events(lastEventID: UInt64? = nil) async throws -> EventStreamReader {
        var headers: HTTPHeaders = ["Accept": "text/event-stream"]
        if let lastEventID { headers["Last-Event-ID"] = String(lastEventID) }
        let response = try await exchange(.get, WebSession.eventsPath, headers: headers, body: [])
        return EventStreamReader(status: response.status.code, body: response.body)
    }

    /// The session's napkin tree at `path`, as napkin's JSON snapshot.
    public func tree(at path: String = "/") async throws -> JSONValue {
        let response = try await get(path, headers: ["Accept": "application/json"])
        return try response.json(JSONValue.self)
    }

    // MARK: - Plumbing

    private func exchange(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: [UInt8]) async throws -> Response {
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = host }
        if !cookies.isEmpty {
            headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let request = Request(method: method, target: target, headers: headers, body: body)
        let response = try await withDeadline(
            Self.responseTimeout, TestClientError.noResponse("\(method) \(target)", within: Self.responseTimeout)
        ) { [transport] in
            try await transport.send(request)
        }
        for header in response.headers.values(for: "Set-Cookie") {
            guard let pair = header.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            cookies[pair[..<equals].trimmingWhitespace()] = String(pair[pair.index(after: equals)...])
        }
        return response
    }
}

/// What a ``TestClient`` could not do.
public enum TestClientError: Error, CustomStringConvertible {
    case noSuchForm(button: String, available: [String])
    case streamEnded
    /// No event came on the stream in time.
    case timedOut(Duration)
    /// No patch that matched came in time; `skipped` are the fragment ids
    /// of the patches that came but did not match.
    case noPatch(within: Duration, skipped: [String])
    /// The request (or its body) did not complete in time.
    case noResponse(String, within: Duration)

    public var description: String {
        switch self {
        case .noSuchForm(let button, let available):
            "no form with a button \"\(button)\" (buttons on the page: \(available))"
        case .streamEnded: "the event stream ended"
        case .timedOut(let limit): "no event within \(limit)"
        case .noPatch(let limit, let skipped):
            skipped.isEmpty
                ? "no patch within \(limit)"
                : "no matching patch within \(limit) (skipped patches of \(skipped.joined(separator: ", ")))"
        case .noResponse(let request, let limit): "no response to \(request) within \(limit)"
        }
    }
}
