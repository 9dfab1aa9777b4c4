import Foundation
import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import NapkinWeb
import napkin

/// A browser tab for tests: it keeps cookies, submits forms the way a
/// browser would, follows redirects after posts, reads live patches and
/// dumps its tab's napkin tree.
///
/// Like a tab with napkin's client, it remembers the tab id its first page
/// named and navigates that tab from then on; ``tab()`` opens another tab
/// of the same session (same cookies, a tree of its own).
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
///
/// ``close(_:fileID:line:)`` leaves the tab as a browser does. Every
/// wait is bounded, and a wait that runs out of time throws a
/// ``WaitExpired`` naming what it waited for and the test's line.
public actor TestClient {
    private let transport: any TestTransport
    private let host: String
    /// Shared by the tabs of one browser.
    private let jar: CookieJar
    /// The next token of each form token a post spent, as the answer gave
    /// it (napkin's client writes it into the form it posted).
    private var nextFormTokens: [String: String] = [:]

    /// The id of this client's tab, once a page has named one.
    public private(set) var tabID: String?
    /// The path of the tab's last page load (sent when its stream comes
    /// back after a drain, as napkin's client does).
    private var pagePath: String?
    /// The session's CSRF token as the tab's page has it (for its goodbye).
    private var csrfToken: String?
    /// The event streams this tab opened, which it closes when it leaves.
    private var streams: [EventStreamReader] = []
    /// Whether the client acts as a browser running napkin's client (it
    /// sends the `napkin_js` cookie, as napkin.js sets it).
    public let javascript: Bool

    /// The cookies the app has set, by name (shared by the client's tabs).
    public var cookies: [String: String] { jar.all }

    /// A client that calls `responder` in-process; with `javascript: false`
    /// it is a browser without napkin's client.
    public init(inProcess responder: any HTTPResponder, javascript: Bool = true) {
        self.init(transport: InProcessTransport(responder: responder), javascript: javascript)
    }

    /// A client of the server listening on `127.0.0.1:port`.
    public init(live port: Int, javascript: Bool = true) {
        self.init(transport: LiveTransport(port: port), host: "127.0.0.1:\(port)", javascript: javascript)
    }

    /// A client over any transport.
    public init(transport: any TestTransport, host: String = "napkin.test", javascript: Bool = true) {
        self.init(transport: transport, host: host, jar: CookieJar(), javascript: javascript)
    }

    private init(transport: any TestTransport, host: String, jar: CookieJar, javascript: Bool) {
        self.transport = transport
        self.host = host
        self.jar = jar
        self.javascript = javascript
    }

    /// Another tab of the same browser: the same cookies (so the same
    /// session), and a tab of its own from its first page on.
    public func tab() -> TestClient {
        TestClient(transport: transport, host: host, jar: jar, javascript: javascript)
    }

    /// The napkin session id, once the app has set one.
    public var sessionID: String? { jar[Self.sessionCookie] }

    private static let sessionCookie = WireProtocol.Cookie.session

    /// Sets a cookie by hand (to forge one, say).
    public func setCookie(_ name: String, _ value: String?) {
        jar.set(name, value)
    }

    /// Forgets the tab id, as a browser without JavaScript has none: the
    /// next page load names no tab (napkin opens a new one, or shows the
    /// tab a plain form post just left).
    public func forgetTab() {
        tabID = nil
    }

    // MARK: - Requests

    /// Sends one request with the client's cookies; does not follow redirects.
    public func send(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        fileID: String = #fileID, line: Int = #line
    ) async throws -> TestResponse {
        var headers = headers
        if method == .get, let tabID, headers[WireProtocol.Header.tab] == nil { headers[WireProtocol.Header.tab] = tabID }
        let response = try await exchange(method, target, headers: headers, body: body, fileID: fileID, line: line)
        let body = response.body
        let bytes = try await withDeadline(
            Self.responseTimeout,
            WaitExpired(awaited: "the body of the response to \(method) \(target)", limit: Self.responseTimeout, fileID: fileID, line: line)
        ) {
            var bytes: [UInt8] = []
            for try await chunk in body.chunks() { bytes += chunk }
            return bytes
        }
        let received = TestResponse(status: response.status.code, headers: response.headers, body: bytes, client: self)
        if method == .get, response.headers["Content-Type"]?.hasPrefix("text/html") == true, let tab = received.tabID {
            tabID = tab
            pagePath = target
            csrfToken = received.csrfToken
        }
        // A request that rotated the session brings its new token.
        if let token = response.headers[WireProtocol.Header.csrf] { csrfToken = token }
        return received
    }

    /// Navigates this tab to `target` in place, as napkin's client does for
    /// a link click with JavaScript (`X-Napkin-Tab`, a fetch rather than a
    /// document load). The page comes back; the tab's stream stays open and
    /// is not sent the navigation's changes.
    public func navigate(to target: String, fileID: String = #fileID, line: Int = #line) async throws -> TestResponse {
        try await get(target, headers: ["Accept": "text/html", "Sec-Fetch-Dest": "empty"], fileID: fileID, line: line)
    }

    /// `GET target`.
    public func get(
        _ target: String, headers: HTTPHeaders = [:], fileID: String = #fileID, line: Int = #line
    ) async throws -> TestResponse {
        try await send(.get, target, headers: headers, fileID: fileID, line: line)
    }

    /// Posts `fields` as `application/x-www-form-urlencoded`.
    public func post(
        _ target: String, form fields: [(String, String)], headers: HTTPHeaders = [:],
        fileID: String = #fileID, line: Int = #line
    ) async throws -> TestResponse {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        let body = fields.map { "\(LiveTransport.percentEncode($0.0))=\(LiveTransport.percentEncode($0.1))" }.joined(separator: "&")
        return try await send(.post, target, headers: headers, body: Array(body.utf8), fileID: fileID, line: line)
    }

    /// Posts `value` as JSON.
    public func post(
        _ target: String, json value: some Encodable, headers: HTTPHeaders = [:],
        fileID: String = #fileID, line: Int = #line
    ) async throws -> TestResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send(.post, target, headers: headers, body: Array(try JSONEncoder().encode(value)), fileID: fileID, line: line)
    }

    /// Follows a redirect with `GET`, as a browser does after a post.
    public func follow(_ response: TestResponse, fileID: String = #fileID, line: Int = #line) async throws -> TestResponse {
        guard (300..<400).contains(response.status), let location = response.headers["Location"] else { return response }
        return try await get(location, fileID: fileID, line: line)
    }

    // MARK: - Forms

    /// Submits the form of `page` that has the button `button`, with its
    /// fields filled from the page and overridden by `fields`.
    ///
    /// By default it posts like a plain form submission and follows the
    /// `303` back to the page — whatever the client's own ``javascript``,
    /// which only says whether the browser runs napkin's client at all (and
    /// so how its page loads pick tabs). With `javascript: true` it posts
    /// like napkin's client (`X-Napkin: 1`, `X-CSRF-Token`) and returns its
    /// answer: `204`, or `422` with the fragment when the post is refused;
    /// like napkin's client, it then posts the form with the token the
    /// last answer gave (``/NapkinWeb/WireProtocol/Header/formToken``), unless
    /// `fields` names one.
    public func submit(
        _ page: TestResponse, button: String, fields: [String: String] = [:], javascript: Bool = false,
        fileID: String = #fileID, line: Int = #line
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
            headers[WireProtocol.Header.client] = "1"
            headers[WireProtocol.Header.csrf] = form.value(of: WireProtocol.Field.csrf) ?? ""
            // The form on the page holds the newest token its posts were given.
            if fields[WireProtocol.Field.formToken] == nil, let index = values.firstIndex(where: { $0.name == WireProtocol.Field.formToken }) {
                while let next = nextFormTokens[values[index].value] { values[index].value = next }
            }
        }
        let posted = values.first { $0.name == WireProtocol.Field.formToken }?.value
        let response = try await post(
            form.action, form: values.map { ($0.name, $0.value) }, headers: headers, fileID: fileID, line: line)
        if let posted, let next = response.headers[WireProtocol.Header.formToken] { nextFormTokens[posted] = next }
        return javascript ? response : try await follow(response, fileID: fileID, line: line)
    }

    // MARK: - Live updates and the tree

    /// Opens the tab's event stream, to read patches as they arrive.
    /// Told to reconnect (the session's id rotated), it opens the stream
    /// again with the cookies the client holds by then, as napkin's client does.
    public func events(lastEventID: UInt64? = nil, fileID: String = #fileID, line: Int = #line) async throws -> EventStreamReader {
        let opened = Locked(jar[Self.sessionCookie])
        let response = try await openStream(lastEventID: lastEventID, fileID: fileID, line: line)
        let name = tabID.map { "the stream of tab \($0.prefix(8))…" } ?? "the stream of the most recent tab"
        let reader = EventStreamReader(status: response.status.code, body: response.body, name: name) { [self, jar] lastEventID, drained in
            // The response that rotated the id brings the new cookie; a
            // client that never gets one (it was not this browser's
            // request) reconnects with the old cookie and finds no session.
            // After a drain the cookie is the same: the client comes back
            // at once (napkin's client waits a random delay first).
            if !drained {
                _ = try? await withDeadline(.seconds(2), TestClientError.streamEnded) {
                    await jar.waitForChange(of: Self.sessionCookie, from: opened.withLock { $0 })
                }
            }
            opened.withLock { $0 = jar[Self.sessionCookie] }
            let again = try await self.openStream(lastEventID: lastEventID, drained: drained, fileID: fileID, line: line)
            return (again.status.code, again.body)
        }
        streams.append(reader)
        return reader
    }

    private func openStream(lastEventID: UInt64?, drained: Bool = false, fileID: String, line: Int) async throws -> Response {
        var headers: HTTPHeaders = ["Accept": "text/event-stream"]
        if let lastEventID { headers["Last-Event-ID"] = String(lastEventID) }
        var target = tabID.map { "\(WebSession.eventsPath)?tab=\($0)" } ?? WebSession.eventsPath
        if drained, tabID != nil, let pagePath,
           let path = pagePath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            target += "&\(WireProtocol.Query.path)=\(path)"
        }
        return try await exchange(.get, target, headers: headers, body: [], fileID: fileID, line: line)
    }

    /// The tab's napkin tree at `path`, as napkin's JSON snapshot (before
    /// the tab's first page, a tree built for the request).
    public func tree(at path: String = "/", fileID: String = #fileID, line: Int = #line) async throws -> JSONValue {
        let response = try await get(path, headers: ["Accept": "application/json"], fileID: fileID, line: line)
        return try response.json(JSONValue.self)
    }

    // MARK: - Leaving

    /// How a tab goes (see ``close(_:fileID:line:)``).
    public enum Leaving: Sendable {
        /// As napkin's client leaves a page (closed, reloaded, left for
        /// another site): it says goodbye (`POST /_napkin/leave`), which
        /// starts the tab's grace at once, and its streams close.
        case goodbye
        /// As a browser that quits without a word (it crashed, or lost
        /// the network): its streams drop, and the server finds out.
        case vanish
    }

    /// Closes the tab as a browser does: by default it says goodbye as
    /// napkin's client does on `pagehide`, then closes the streams it
    /// opened. Returns the goodbye's answer (`204`; `nil` when it sent none:
    /// the tab vanished, or never showed a page). After a goodbye the
    /// server has started the tab's grace; after ``Leaving/vanish`` it
    /// starts it once it sees the streams drop. The client's next page
    /// opens a new tab.
    @discardableResult
    public func close(_ leaving: Leaving = .goodbye, fileID: String = #fileID, line: Int = #line) async throws -> TestResponse? {
        var answer: TestResponse?
        if leaving == .goodbye, let tabID {
            let fields = [(WireProtocol.Field.tab, tabID), (WireProtocol.Field.csrf, csrfToken ?? "")]
            answer = try await post(WebSession.leavePath, form: fields, headers: ["Origin": "http://\(host)"], fileID: fileID, line: line)
        }
        for stream in streams { stream.close() }
        streams.removeAll()
        tabID = nil
        return answer
    }

    // MARK: - Plumbing

    private func exchange(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: [UInt8], fileID: String, line: Int
    ) async throws -> Response {
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = host }
        var cookies = self.cookies
        if javascript, cookies[WireProtocol.Cookie.script] == nil { cookies[WireProtocol.Cookie.script] = "1" }
        if !cookies.isEmpty {
            headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let request = Request(method: method, target: target, headers: headers, body: body)
        let response = try await withDeadline(
            Self.responseTimeout,
            WaitExpired(awaited: "the response to \(method) \(target)", limit: Self.responseTimeout, fileID: fileID, line: line)
        ) { [transport] in
            try await transport.send(request)
        }
        for header in response.headers.values(for: "Set-Cookie") {
            guard let pair = header.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingWhitespace()
            let value = String(pair[pair.index(after: equals)...])
            jar.set(name, value)
        }
        return response
    }
}

/// What a ``TestClient`` could not do.
public enum TestClientError: Error, CustomStringConvertible {
    /// The page has no form with a submit button of that text; `available`
    /// are the buttons it has.
    case noSuchForm(button: String, available: [String])
    /// The page has no link of that text; `available` are the links it has.
    case noSuchLink(text: String, available: [String])
    /// The response was not received by a ``TestClient``.
    case noClient
    /// The event stream ended before the event that was waited for.
    case streamEnded

    /// What went wrong, for a test's failure message.
    public var description: String {
        switch self {
        case .noSuchForm(let button, let available):
            "no form with a button \"\(button)\" (buttons on the page: \(available))"
        case .noSuchLink(let text, let available):
            "no link \"\(text)\" (links on the page: \(available))"
        case .noClient: "the response did not come from a TestClient"
        case .streamEnded: "the event stream ended"
        }
    }
}
