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
        let handler: HTTPHandler
        /// The handler as registered, for a route registered with one that
        /// answers at once; `handler` calls it.
        var immediate: ImmediateHandler?
        /// The handler as registered, for a main-actor route; `handler`
        /// runs it through ``MainActorWork/run(_:)``.
        var mainActor: MainActorHandler?
    }

    private var routes: [Route] = []
    private var middleware: [any Middleware] = []
    private var fallbackResponder: (any HTTPResponder)?
    private var fastResponder: (@Sendable (Request) -> Response?)?
    private var chain: HTTPHandler
    /// The fast path and the immediate routes, finished by the middleware;
    /// nil when there are none or a middleware cannot finish synchronously.
    private var immediateResponder: (@Sendable (Request) -> Response?)?
    /// Main-actor routes and the fallback's main-actor work, finished by
    /// the middleware; nil when a middleware cannot finish synchronously.
    private var mainActorPlanner: (@Sendable (Request) -> (@MainActor @Sendable () async throws -> Response)?)?
    /// The middleware that can finish an answer synchronously, innermost first.
    private var innermostFinishers: [any FastPathMiddleware] = []

    /// An empty router: every request is a 404 until routes are added.
    public init() {
        chain = { _ in Response.text("Not Found", status: .notFound) }
        rebuild()
    }

    /// Registers `handler` for `method` on `pattern`; earlier registrations win.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
        rebuild()
    }

    /// Registers `handler`, which answers at once, for `method` on `pattern`;
    /// earlier registrations win.
    ///
    /// A closure that neither awaits nor throws is such a handler, so
    /// `router.get("/health") { _ in .text("ok") }` lands here. When every
    /// middleware is a ``FastPathMiddleware``, ``HTTPServer`` answers these
    /// routes on its own thread, with no task and no thread hop (see
    /// ``respondImmediately(to:)``); otherwise they run through the chain like
    /// any handler. Meant for answers at hand: bytes encoded when they last
    /// changed, a snapshot behind a lock. Keep them short: the thread they run
    /// on serves other connections.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ImmediateHandler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: { handler($0) }, immediate: handler))
        rebuild()
    }

    /// Registers `handler`, which is main-actor work, for `method` on
    /// `pattern`; earlier registrations win.
    ///
    /// When every middleware is a ``FastPathMiddleware``, ``HTTPServer``
    /// runs the handler and the middleware's `finish` as one main-actor task
    /// that sends the answer itself (see ``mainActorWork(for:)``): no task
    /// waits for it on the server's thread. Otherwise the chain runs it
    /// through ``MainActorWork/run(_:)``.
    ///
    /// ```swift
    /// router.onMainActor(.get, "/cart") { request in
    ///     try await store.cartPage(for: request)
    /// }
    /// ```
    public mutating func onMainActor(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping MainActorHandler) {
        routes.append(
            Route(
                method: method, pattern: RoutePattern(pattern),
                handler: { request in try await MainActorWork.run { try await handler(request) } }, mainActor: handler))
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
    /// which answers at once (an ``ImmediateHandler``, see ``on(_:_:_:)-(_,_,ImmediateHandler)``).
    ///
    /// ```swift
    /// router.get("/api/pit") { _ in
    ///     Response(headers: ["Content-Type": "application/json"], body: .bytes(pit.currentJSON))
    /// }
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

    /// Adds middleware; the first added is the outermost.
    public mutating func use(_ middleware: any Middleware) {
        self.middleware.append(middleware)
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
    /// for paths whose first component names no route. When every middleware
    /// is a ``FastPathMiddleware`` (an access log, security headers, error
    /// mapping), its answers skip the asynchronous chain and each middleware
    /// finishes them synchronously (on the server's own thread, through
    /// ``respondImmediately(to:)``); otherwise they go through the whole chain.
    public mutating func fastPath(_ responder: @escaping @Sendable (Request) -> Response?) {
        fastResponder = responder
        rebuild()
    }

    /// Answers `request` through the middleware: the fast path's answer,
    /// else the first matching route's, else a `405` or the fallback's.
    public func respond(to request: Request) async throws -> Response {
        if let immediateResponder, let response = immediateResponder(request) { return response }
        return try await chain(request)
    }

    /// The fast path's answer or an immediate route's, finished by every
    /// middleware, when the request gets one and every middleware is a
    /// ``FastPathMiddleware``; nil otherwise (``respond(to:)`` then runs the
    /// chain).
    public func respondImmediately(to request: Request) -> Response? {
        immediateResponder?(request)
    }

    /// The main-actor work answering `request`, finished by every
    /// middleware, when the route ``respond(to:)`` would pick is a
    /// main-actor route (or, with no route for the path, the fallback has
    /// main-actor work for it) and every middleware is a
    /// ``FastPathMiddleware``; nil otherwise.
    ///
    /// ``HTTPServer`` asks it after ``respondImmediately(to:)`` gave nil, so
    /// it does not try the fast path again.
    public func mainActorWork(for request: Request) -> (@MainActor @Sendable () async throws -> Response)? {
        mainActorPlanner?(request)
    }

    /// `answer`, made by the server itself, finished by every
    /// ``FastPathMiddleware`` (an access log logs it, security headers are
    /// added); other middleware never sees it.
    public func finishServerAnswer(_ answer: Response, to request: Request) -> Response {
        let start = ContinuousClock.now
        var response = answer
        for m in innermostFinishers { response = m.finish(request, response, startedAt: start) }
        return response
    }

    /// Precomposes the middleware chain so a request pays no composition cost.
    private mutating func rebuild() {
        let routes = self.routes
        let fallback = self.fallbackResponder
        let fast = fastResponder.flatMap { HTTPRouter.guarded($0, routes: routes) }
        let finishers = middleware.compactMap { $0 as? any FastPathMiddleware }
        let synchronous = finishers.count == middleware.count
        let hasImmediateRoutes = routes.contains { $0.immediate != nil }
        var handler: HTTPHandler = { request in
            if !synchronous, let fast, let response = fast(request) { return response }
            return try await HTTPRouter.dispatch(request, routes: routes, fallback: fallback)
        }
        for m in middleware.reversed() {
            let next = handler
            handler = { request in try await m.respond(to: request, next: next) }
        }
        chain = handler
        let innermostFirst = Array(finishers.reversed())
        innermostFinishers = innermostFirst
        let hasMainActorWork = fallback != nil || routes.contains { $0.mainActor != nil }
        mainActorPlanner = nil
        if synchronous, hasMainActorWork {
            mainActorPlanner = { request in
                let start = ContinuousClock.now
                guard let (work, dropsBody) = HTTPRouter.mainActorWork(request, routes: routes, fallback: fallback) else { return nil }
                return { @MainActor () async throws -> Response in
                    let outcome: Result<Response, any Error>
                    do {
                        let response = try await work()
                        outcome = .success(dropsBody ? HTTPRouter.dropBody(response) : response)
                    } catch {
                        outcome = .failure(error)
                    }
                    return try HTTPRouter.finish(request, outcome, by: innermostFirst, startedAt: start)
                }
            }
        }
        guard synchronous, fast != nil || hasImmediateRoutes else {
            immediateResponder = nil
            return
        }
        immediateResponder = { request in
            let start = ContinuousClock.now
            guard var response = fast?(request) ?? (hasImmediateRoutes ? HTTPRouter.immediateAnswer(request, routes: routes) : nil)
            else { return nil }
            for m in innermostFirst { response = m.finish(request, response, startedAt: start) }
            return response
        }
    }

    /// The answer of the route ``dispatch(_:routes:fallback:)`` would pick,
    /// when that route answers at once; nil when it awaits or none matches.
    private static func immediateAnswer(_ request: Request, routes: [Route]) -> Response? {
        guard case .route(let route, let request, let dropsBody) = select(request, routes: routes),
            let immediate = route.immediate
        else { return nil }
        let response = immediate(request)
        return dropsBody ? dropBody(response) : response
    }

    /// The main-actor work ``dispatch(_:routes:fallback:)`` would await, and
    /// whether it answers a `HEAD` (its body then dropped); nil when the
    /// route it would pick is not a main-actor route, or it would answer
    /// `405`, or the fallback has no main-actor work for the request.
    private static func mainActorWork(
        _ request: Request, routes: [Route], fallback: (any HTTPResponder)?
    ) -> (work: @MainActor @Sendable () async throws -> Response, dropsBody: Bool)? {
        switch select(request, routes: routes) {
        case .route(let route, let request, let dropsBody):
            guard let handler = route.mainActor else { return nil }
            return ({ try await handler(request) }, dropsBody)
        case .unclaimed:
            guard let work = fallback?.mainActorWork(for: request) else { return nil }
            return (work, request.method == .head)
        case .notAllowed:
            return nil
        }
    }

    /// `outcome` as the middleware (innermost first) leave it: each
    /// finishes an answer, and may turn an error into one.
    private static func finish(
        _ request: Request, _ outcome: Result<Response, any Error>, by innermostFirst: [any FastPathMiddleware],
        startedAt start: ContinuousClock.Instant
    ) throws -> Response {
        var outcome = outcome
        for m in innermostFirst {
            switch outcome {
            case .success(let response):
                outcome = .success(m.finish(request, response, startedAt: start))
            case .failure(let error):
                if let response = m.finish(request, failure: error, startedAt: start) { outcome = .success(response) }
            }
        }
        return try outcome.get()
    }

    /// `request` with the route's `parameters` added.
    private static func with(_ parameters: [String: String], _ request: Request) -> Request {
        guard !parameters.isEmpty else { return request }
        var request = request
        request.parameters.merge(parameters) { _, new in new }
        return request
    }


    /// `responder`, tried only for GET/HEAD paths whose first component no route claims.
    private static func guarded(_ responder: @escaping @Sendable (Request) -> Response?, routes: [Route]) -> (@Sendable (Request) -> Response?)? {
        var claimed: [[UInt8]] = []
        for route in routes {
            switch route.pattern.segments.first {
            case .literal(let text): if !claimed.contains(Array(text.utf8)) { claimed.append(Array(text.utf8)) }
            case .parameter, .wildcard: return nil
            case nil: continue
            }
        }
        return { [claimed] request in
            guard request.method == .get || request.method == .head else { return nil }
            let path = request.path.utf8
            var start = path.startIndex
            while start < path.endIndex, path[start] == UInt8(ascii: "/") { start = path.index(after: start) }
            let end = path[start...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
            let first = path[start..<end]
            if claimed.contains(where: { first.elementsEqual($0) }) { return nil }
            return responder(request)
        }
    }

    /// What a request's method and path select among `routes`.
    private enum Selection {
        /// `route`, given `request` with the route's parameters; for a
        /// `HEAD` served by a `GET` route, `dropsBody`.
        case route(Route, Request, dropsBody: Bool)
        /// Routes match the path under other methods only: a `405`.
        case notAllowed([HTTPMethod])
        /// No route matches the path: the fallback's.
        case unclaimed
    }

    /// The first route for the request's method whose pattern matches its
    /// path, else (for `HEAD`) the first such `GET` route; the one place
    /// that decides, so the immediate, main-actor and asynchronous answers
    /// always come from the same route.
    private static func select(_ request: Request, routes: [Route]) -> Selection {
        var allowed: [HTTPMethod] = []
        var getMatch: (Route, [String: String])?
        for route in routes {
            guard let parameters = route.pattern.match(path: request.path) else { continue }
            if route.method == request.method {
                return .route(route, with(parameters, request), dropsBody: false)
            }
            if request.method == .head, route.method == .get, getMatch == nil {
                getMatch = (route, parameters)
            }
            allowed.append(route.method)
        }
        if let (route, parameters) = getMatch {
            return .route(route, with(parameters, request), dropsBody: true)
        }
        return allowed.isEmpty ? .unclaimed : .notAllowed(allowed)
    }

    private static func dispatch(_ request: Request, routes: [Route], fallback: (any HTTPResponder)?) async throws -> Response {
        switch select(request, routes: routes) {
        case .route(let route, let request, let dropsBody):
            let response = try await route.handler(request)
            return dropsBody ? dropBody(response) : response
        case .unclaimed:
            guard let fallback else { return Response.text("Not Found", status: .notFound) }
            let response = try await fallback.respond(to: request)
            return request.method == .head ? dropBody(response) : response
        case .notAllowed(let allowed):
            var methods = Set(allowed.map(\.rawValue))
            if methods.contains("GET") { methods.insert("HEAD") }
            var response = Response.text("Method Not Allowed", status: .methodNotAllowed)
            response.headers["Allow"] = methods.sorted().joined(separator: ", ")
            return response
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
        case .stream, .channel:
            response.body.discard()
        }
        response.body = .bytes([])
        return response
    }
}
