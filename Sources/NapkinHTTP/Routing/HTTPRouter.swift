/// Routes requests by method and path pattern, wrapped in middleware.
///
/// Patterns are `/literal/:parameter/*` (a trailing wildcard captures the rest
/// under `"*"`). A path no route matches goes to the fallback (default 404); a
/// path that matches only under other methods answers 405 with `Allow`. `HEAD`
/// is served by the `GET` route with the body dropped and its headers — including
/// the length — kept. Middleware wraps everything, 404s and 405s included, so an
/// access log sees every request.
public struct HTTPRouter: HTTPResponder {
    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        /// The pattern as registered: the route's metrics label.
        let label: String
        /// How the route answers, decided when it was registered.
        let answer: @Sendable (Request) -> Answer
    }

    private var routes: [Route] = []
    private var middleware: [any Middleware] = []
    private var fallbackResponder: (any HTTPResponder)?
    private var fastResponder: FastResponder?
    /// Paths answered ahead of the middleware (``probe(_:_:)``).
    private var probes: [(path: String, answer: @Sendable (Request) -> Response)] = []
    private var metrics: RequestMetrics?
    /// The middleware around the route selection, composed once.
    private var chain: NextResponder

    /// An empty router: every request is a 404 until routes are added.
    public init() {
        chain = { _ in .now(Response.text("Not Found", status: .notFound)) }
        rebuild()
    }

    /// Registers `handler` for `method` on `pattern`; earlier registrations win.
    /// The handler runs as a task (see ``Answer/task(_:)``).
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        add(method, pattern) { request in .task { try await handler(request) } }
    }

    /// Registers `handler`, which answers at once, for `method` on `pattern`;
    /// earlier registrations win.
    ///
    /// A closure that neither awaits nor throws is such a handler, so
    /// `router.get("/health") { _ in .text("ok") }` lands here. ``HTTPServer``
    /// answers it on its own thread, with no task and no thread hop. Meant
    /// for answers at hand: bytes encoded when they last changed, a
    /// snapshot behind a lock. Keep them short: the thread they run on
    /// serves other connections.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ImmediateHandler) {
        add(method, pattern) { request in .now(handler(request)) }
    }

    /// Registers `handler`, which is main-actor work, for `method` on
    /// `pattern`; earlier registrations win.
    ///
    /// ``HTTPServer`` runs the handler and the middleware's finishing as one
    /// main-actor task that sends the answer itself: no task waits for it
    /// on the server's thread.
    ///
    /// ```swift
    /// router.onMainActor(.get, "/cart") { request in
    ///     try await store.cartPage(for: request)
    /// }
    /// ```
    public mutating func onMainActor(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping MainActorHandler) {
        add(method, pattern) { request in .mainActor { try await handler(request) } }
    }

    private mutating func add(_ method: HTTPMethod, _ pattern: String, _ answer: @escaping @Sendable (Request) -> Answer) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), label: pattern, answer: answer))
        rebuild()
    }

    /// Routes `GET` (and so `HEAD`) requests matching `pattern` to `handler`.
    public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) { on(.get, pattern, handler) }
    /// Routes `POST` requests matching `pattern` to `handler`.
    public mutating func post(_ pattern: String, _ handler: @escaping HTTPHandler) { on(.post, pattern, handler) }
    /// Routes `PUT` requests matching `pattern` to `handler`.
    public mutating func put(_ pattern: String, _ handler: @escaping HTTPHandler) { on(.put, pattern, handler) }
    /// Routes `PATCH` requests matching `pattern` to `handler`.
    public mutating func patch(_ pattern: String, _ handler: @escaping HTTPHandler) { on(.patch, pattern, handler) }
    /// Routes `DELETE` requests matching `pattern` to `handler`.
    public mutating func delete(_ pattern: String, _ handler: @escaping HTTPHandler) { on(.delete, pattern, handler) }

    /// Routes `GET` (and so `HEAD`) requests matching `pattern` to `handler`,
    /// which answers at once (an ``ImmediateHandler``).
    ///
    /// ```swift
    /// router.get("/api/pit") { _ in pit.json.response }
    /// ```
    public mutating func get(_ pattern: String, _ handler: @escaping ImmediateHandler) { on(.get, pattern, handler) }
    /// Routes `POST` requests matching `pattern` to `handler`, which answers at once.
    public mutating func post(_ pattern: String, _ handler: @escaping ImmediateHandler) { on(.post, pattern, handler) }
    /// Routes `PUT` requests matching `pattern` to `handler`, which answers at once.
    public mutating func put(_ pattern: String, _ handler: @escaping ImmediateHandler) { on(.put, pattern, handler) }
    /// Routes `PATCH` requests matching `pattern` to `handler`, which answers at once.
    public mutating func patch(_ pattern: String, _ handler: @escaping ImmediateHandler) { on(.patch, pattern, handler) }
    /// Routes `DELETE` requests matching `pattern` to `handler`, which answers at once.
    public mutating func delete(_ pattern: String, _ handler: @escaping ImmediateHandler) { on(.delete, pattern, handler) }

    /// Counts every request in `registry`, by route pattern and status
    /// class (`napkin_http_requests_total`), and times it by route pattern
    /// (`napkin_http_request_duration_seconds`), outside all middleware.
    ///
    /// A request no route claims is labelled by what answered it, never by
    /// its path: `static` (the fast path), `fallback`, `unmatched` (the
    /// router's own 404), `server` (the server's own refusal) or
    /// `middleware` (answered before routing, or passed on later from a
    /// middleware's own task), so label sets stay bounded whatever paths
    /// clients send.
    public mutating func measure(in registry: MetricsRegistry) {
        metrics = RequestMetrics(registry: registry)
        rebuild()
    }

    /// Adds middleware; the first added is the outermost.
    public mutating func use(_ middleware: any Middleware) {
        self.middleware.append(middleware)
        rebuild()
    }

    /// Adds middleware outside all the router has: for what wraps an app
    /// from outside it, such as the access log a serving command adds.
    package mutating func useOutermost(_ middleware: any Middleware) {
        self.middleware.insert(middleware, at: 0)
        rebuild()
    }

    /// Answers paths no route matches (for example ``StaticFiles``); without one they get 404.
    public mutating func fallback(_ responder: any HTTPResponder) {
        fallbackResponder = responder
        rebuild()
    }

    /// Answers `GET`/`HEAD` requests ahead of route matching when `responder`
    /// returns a response (static files, say), and passes on when it returns nil.
    ///
    /// It is only tried for a path no route could claim: when a route's first
    /// segment is a parameter or wildcard, it is never tried; otherwise only
    /// for paths whose first component names no route. Its answers are
    /// immediate, finished by the middleware like any other.
    public mutating func fastPath(_ responder: @escaping @Sendable (Request) -> Response?) {
        fastResponder = FastResponder(respond: responder)
        rebuild()
    }

    /// Answers `GET` and `HEAD` of exactly `path` with `handler`, on the
    /// loop's thread, ahead of every middleware: no access log line, no
    /// session, no route matching. Meant for a load balancer's health
    /// checks, asked every few seconds and worth no log line each.
    public mutating func probe(_ path: String, _ handler: @escaping @Sendable (Request) -> Response) {
        probes.removeAll { $0.path == path }
        probes.append((path, handler))
        rebuild()
    }

    /// How `request` is answered, through the middleware: the fast path's
    /// answer, else the first matching route's, else a `405` or the
    /// fallback's. A request the server answered itself
    /// (``Request/serverAnswer``) gets that answer, finished by the
    /// middleware, and no route.
    public func answer(_ request: Request) -> Answer {
        chain(request)
    }

    /// Composes the middleware around the route selection once, so a
    /// request pays no composition cost.
    private mutating func rebuild() {
        let routes = self.routes
        let fallback = self.fallbackResponder
        let fast = fastResponder.flatMap { HTTPRouter.guarded($0, routes: routes) }
        let probes = self.probes
        let measured = metrics != nil
        var next: NextResponder = { request in
            if let answer = request.serverAnswer {
                if measured { RouteChoice.choose(RouteChoice.server) }
                return .now(answer)
            }
            if let fast, let response = fast.respond(request) {
                if measured { RouteChoice.choose(RouteChoice.staticFiles) }
                return .now(response)
            }
            return HTTPRouter.dispatch(request, routes: routes, fallback: fallback, measured: measured)
        }
        for m in middleware.reversed() {
            let inner = next
            next = { request in m.answer(request, next: inner) }
        }
        if let metrics {
            next = HTTPRouter.measuring(next, metrics: metrics, routes: routes)
        }
        guard !probes.isEmpty else {
            chain = next
            return
        }
        let routed = next
        chain = { request in
            // A couple of string comparisons, which fail at the length or
            // the first bytes for almost every request.
            if request.method == .get || request.method == .head, request.serverAnswer == nil,
               let probe = probes.first(where: { $0.path == request.path }) {
                return .now(probe.answer(request))
            }
            return routed(request)
        }
    }

    /// `inner`, with each request counted and timed under the series its
    /// dispatch chose. The routes' series are looked up once, here.
    private static func measuring(_ inner: @escaping NextResponder, metrics: RequestMetrics, routes: [Route]) -> NextResponder {
        let series = routes.map { RequestMetrics.Series(route: $0.label, registry: metrics.registry) }
        return { request in
            let start = request.arrival
            RouteChoice.choose(RouteChoice.middleware)
            let answer = inner(request)
            let chosen = metrics.series(RouteChoice.chosen, routes: series)
            // An answer at hand is recorded now, with no closure to allocate
            // and the answer not copied.
            if let status = RequestMetrics.immediateStatus(of: answer) {
                chosen.record(status: status, since: start)
                return answer
            }
            return answer.finished { outcome in
                chosen.record(status: RequestMetrics.status(of: outcome), since: start)
                return outcome
            }
        }
    }

    /// `request` with the route's `parameters` added.
    private static func with(_ parameters: [String: String], _ request: Request) -> Request {
        guard !parameters.isEmpty else { return request }
        var request = request
        request.parameters.merge(parameters) { _, new in new }
        return request
    }


    /// `responder`, tried only for GET/HEAD paths whose first component no route claims.
    private static func guarded(_ responder: FastResponder, routes: [Route]) -> FastResponder? {
        var claimed: [[UInt8]] = []
        for route in routes {
            switch route.pattern.segments.first {
            case .literal(let text): if !claimed.contains(Array(text.utf8)) { claimed.append(Array(text.utf8)) }
            case .parameter, .wildcard: return nil
            case nil: continue
            }
        }
        return FastResponder { [claimed] request in
            guard request.method == .get || request.method == .head else { return nil }
            let first = RoutePattern.firstComponent(of: request.path)
            if claimed.contains(where: { first.elementsEqual($0) }) { return nil }
            return responder.respond(request)
        }
    }

    /// A responder tried ahead of the routes (``fastPath(_:)``), kept in a
    /// struct: a closure kept in an `Optional` is stored in its most general
    /// form, and each call would go through thunks that copy the request.
    private struct FastResponder: Sendable {
        let respond: @Sendable (Request) -> Response?
    }

    /// What a request's method and path select among `routes`.
    private enum Selection {
        /// `route` (the `index`th) with the `parameters` its pattern
        /// captured; for a `HEAD` served by a `GET` route, `dropsBody`.
        case route(Route, index: Int, parameters: [String: String], dropsBody: Bool)
        /// Routes match the path under other methods only: a `405`, counted
        /// under the first of them (the `index`th route).
        case notAllowed([HTTPMethod], index: Int)
        /// No route matches the path: the fallback's.
        case unclaimed
    }

    /// The first route for the request's method whose pattern matches its
    /// path, else (for `HEAD`) the first such `GET` route.
    private static func select(_ request: Request, routes: [Route]) -> Selection {
        var allowed: [HTTPMethod] = []
        var firstAllowed = 0
        var getMatch: (Route, Int, [String: String])?
        let first = RoutePattern.firstComponent(of: request.path)
        for (index, route) in routes.enumerated() {
            if let literal = route.pattern.firstLiteral, !first.elementsEqual(literal) { continue }
            guard let parameters = route.pattern.match(path: request.path) else { continue }
            if route.method == request.method {
                return .route(route, index: index, parameters: parameters, dropsBody: false)
            }
            if request.method == .head, route.method == .get, getMatch == nil {
                getMatch = (route, index, parameters)
            }
            if allowed.isEmpty { firstAllowed = index }
            allowed.append(route.method)
        }
        if let (route, index, parameters) = getMatch {
            return .route(route, index: index, parameters: parameters, dropsBody: true)
        }
        return allowed.isEmpty ? .unclaimed : .notAllowed(allowed, index: firstAllowed)
    }

    /// How `request` is answered by its route, the fallback or a refusal;
    /// when `measured`, which it was is noted (``RouteChoice``).
    private static func dispatch(_ request: Request, routes: [Route], fallback: (any HTTPResponder)?, measured: Bool) -> Answer {
        switch select(request, routes: routes) {
        case .route(let route, let index, let parameters, let dropsBody):
            if measured { RouteChoice.choose(index) }
            let answer = route.answer(with(parameters, request))
            return dropsBody ? answer.finished { $0.map(dropBody) } : answer
        case .unclaimed:
            guard let fallback else {
                if measured { RouteChoice.choose(RouteChoice.unmatched) }
                return .now(Response.text("Not Found", status: .notFound))
            }
            if measured { RouteChoice.choose(RouteChoice.fallback) }
            let answer = fallback.answer(request)
            return request.method == .head ? answer.finished { $0.map(dropBody) } : answer
        case .notAllowed(let allowed, let index):
            if measured { RouteChoice.choose(index) }
            var methods = Set(allowed.map(\.rawValue))
            if methods.contains("GET") { methods.insert("HEAD") }
            var response = Response.text("Method Not Allowed", status: .methodNotAllowed)
            response.headers["Allow"] = methods.sorted().joined(separator: ", ")
            return .now(response)
        }
    }

    /// HEAD keeps every header of the GET answer, including its length, but sends no body.
    static func dropBody(_ response: Response) -> Response {
        var response = response
        switch response.body {
        case .bytes(let bytes):
            if !bytes.isEmpty || response.headers["Content-Length"] == nil {
                response.headers["Content-Length"] = String(bytes.count)
            }
        case .file(let region):
            response.headers["Content-Length"] = String(region.length)
        case .stream, .channel, .events:
            response.body.discard()
        }
        response.body = .bytes([])
        return response
    }
}
