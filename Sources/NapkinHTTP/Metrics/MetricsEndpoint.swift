/// Answers `GET /metrics` with a ``MetricsRegistry``'s snapshot in the
/// Prometheus text format, for a Prometheus server to scrape.
///
/// Metrics tell an outsider what the server does and how loaded it is, so
/// they are never open to the world by default. Serve them either on a
/// listener of their own, bound to the loopback address
/// (``listener(host:port:)``), or on the app's listener behind a bearer
/// token (`Authorization: Bearer <token>`), which Prometheus sends with
/// `authorization: { credentials: … }`:
///
/// ```swift
/// let metrics = MetricsRegistry()
/// try MetricsEndpoint(registry: metrics).listener(port: 9464).start()
/// // or, on the app's own router:
/// MetricsEndpoint(registry: metrics, token: secret).mount(on: &router)
/// ```
public struct MetricsEndpoint: HTTPResponder {
    /// The registry served.
    public let registry: MetricsRegistry
    /// The bearer token a request must carry; nil for none (a loopback listener).
    public let token: String?
    /// The path answered (`/metrics`); any other is a 404.
    public let path: String
    /// The token, checked in constant time.
    private let bearer: BearerToken?

    /// The text format's media type.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// An endpoint serving `registry` at `path`, to requests carrying
    /// `token` when one is given.
    public init(registry: MetricsRegistry, token: String? = nil, path: String = "/metrics") {
        self.registry = registry
        self.token = token
        self.path = path
        bearer = token.map(BearerToken.init)
    }

    /// `GET`/`HEAD` of ``path``: the metrics, or `401` without the token;
    /// anything else `404` or `405`.
    public func answer(_ request: Request) -> Answer {
        guard request.path == path else { return .now(.text("Not Found", status: .notFound)) }
        guard request.method == .get || request.method == .head else {
            var refused = Response.text("Method Not Allowed", status: .methodNotAllowed)
            refused.headers["Allow"] = "GET, HEAD"
            return .now(refused)
        }
        guard authorized(request) else {
            var refused = Response.text("Unauthorized", status: .unauthorized)
            refused.headers["WWW-Authenticate"] = "Bearer realm=\"metrics\""
            return .now(refused)
        }
        let registry = self.registry
        return .task {
            let text = await registry.snapshot().prometheusText
            var response = Response(headers: ["Content-Type": MetricsEndpoint.contentType], body: .bytes(Array(text.utf8)))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }

    /// Routes `GET` (and `HEAD`) of ``path`` on `router` to this endpoint,
    /// beside the router's other routes.
    public func mount(on router: inout HTTPRouter) {
        router.get(path) { [self] request in try await respond(to: request) }
    }

    /// Whether `request` carries the token (always, when there is none).
    private func authorized(_ request: Request) -> Bool {
        bearer?.admits(request) ?? true
    }

    /// A server of its own for these metrics, on `host` (the loopback
    /// address by default, so only this machine reaches it) and `port`,
    /// with a few connections: start it next to the app's.
    public func listener(host: String = "127.0.0.1", port: Int) -> HTTPServer {
        Self.listener(host: host, port: port, serving: self)
    }

    /// A small server on `host` and `port` for an operator's `responder`
    /// (a router with these metrics and a dashboard, say): one thread and a
    /// few connections, as ``listener(host:port:)`` makes.
    public static func listener(host: String = "127.0.0.1", port: Int, serving responder: any HTTPResponder) -> HTTPServer {
        var configuration = ServerConfiguration(host: host, port: port, workerThreads: 1, connectionLimit: 64, perIPConnectionLimit: 16)
        configuration.memoryTrimInterval = nil
        return HTTPServer(configuration: configuration, responder: responder)
    }
}
