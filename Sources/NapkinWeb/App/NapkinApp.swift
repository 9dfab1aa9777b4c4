import NapkinHTTP
import napkin

/// A napkin web app: a napkin tree per browser session, served over
/// NapkinHTTP.
///
/// Give it the app-wide component (where shared services live) and the root
/// builder; mount it on a router next to the app's own routes:
///
/// ```swift
/// let app = NapkinApp(component: AppComponent(), configuration: .init(layout: PageLayout(title: "Counter"))) { component in
///     await RootBuilder(dependency: component).build()
/// }
/// var router = NapkinHTTP.Router()
/// router.get("/api/health") { _ in .text("ok") }
/// app.mount(on: &router, publicDirectory: "Public")
/// try await HTTPServer(configuration: .init(port: 8080), responder: router).runUntilSignalled()
/// ```
///
/// Every page URL is answered from the session's tree; `GET /_napkin/events`
/// streams its patches; `POST /_napkin/action` runs a fragment's action.
@MainActor
public final class NapkinApp {
    /// How the app serves its sessions.
    public nonisolated let configuration: NapkinConfiguration

    private let launchTree: @MainActor () async -> any LaunchRouting
    private let store: SessionStore
    private var sweeper: Task<Void, Never>?

    /// Creates an app whose sessions each get a tree from `root`, built on
    /// `component`.
    public init<AppComponent: Sendable>(
        component: AppComponent,
        configuration: NapkinConfiguration = NapkinConfiguration(),
        root: @escaping @MainActor (AppComponent) async -> any LaunchRouting
    ) {
        self.configuration = configuration
        launchTree = { await root(component) }
        store = SessionStore(
            idleTimeout: configuration.sessionIdleTimeout, newIdleTimeout: configuration.newSessionIdleTimeout,
            capacity: configuration.maxSessions)
    }

    // MARK: - Mounting

    /// Adds napkin's routes to `router`: the event stream, the action
    /// endpoint, and — for every other path — static files from
    /// `publicDirectory`, then the session's pages. Also adds napkin's
    /// security headers and error mapping, and starts evicting idle sessions.
    public nonisolated func mount(on router: inout NapkinHTTP.Router, publicDirectory: String? = nil) {
        let files = publicDirectory.map { StaticFiles(directory: $0) }
        router.use(SecurityHeaders(contentSecurityPolicy: configuration.contentSecurityPolicy))
        router.use(ErrorMiddleware())
        router.get(WebSession.eventsPath) { [self] request in await events(request) }
        router.post(WebSession.actionPath) { [self] request in try await action(request) }
        // Static files first, ahead of routing and pages (security headers
        // and the access log still apply); the page fallback serves any
        // file the fast path passed on.
        if let files { router.fastPath { request in files.lookup(request) } }
        router.fallback(PageResponder(app: self, files: files))
        Task { @MainActor in self.startSweeping() }
    }

    private func startSweeping() {
        guard sweeper == nil else { return }
        let shortest = min(configuration.sessionIdleTimeout, configuration.newSessionIdleTimeout)
        let interval = configuration.idleSweepInterval ?? min(shortest / 4, .seconds(60))
        sweeper = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: max(interval, .milliseconds(100)))
                await self?.evictIdleSessions()
            }
        }
    }

    /// Stops the idle sweep and tears every session down.
    public func shutdown() async {
        sweeper?.cancel()
        sweeper = nil
        for session in store.all {
            _ = store.remove(id: session.id)
            await session.terminate()
        }
    }

    // MARK: - Sessions

    /// The number of live sessions.
    public var sessionCount: Int { store.count }

    /// The live session with `id`.
    public func session(id: String) -> WebSession? {
        store.session(id: id)
    }

    /// Tears the session `id` down now: its tree is deactivated and released.
    public func evict(sessionID id: String) async {
        await store.remove(id: id)?.terminate()
    }

    /// Tears down every session idle for longer than the configured timeout.
    public func evictIdleSessions() async {
        for session in store.removeIdle() { await session.terminate() }
    }

    /// Moves the sessions' clock forward, for tests of idle eviction.
    func advanceSessionClock(by duration: Duration) {
        store.offset += duration
    }

    /// A JSON-ready snapshot of the session's napkin tree.
    public func snapshot(sessionID id: String) -> TreeSnapshot? {
        store.session(id: id)?.router.map { TreeSnapshot(router: $0) }
    }

    private func existingSession(for request: Request) -> WebSession? {
        store.session(id: request.cookies[SessionCookie.name])
    }

    /// A session with its tree built and launched, not yet in the store:
    /// a request that turns out not to be a page view never keeps it.
    private func launchSession() async -> WebSession {
        let session = WebSession(now: store.now, maxStreams: configuration.maxStreamsPerSession)
        let router = await launchTree()
        session.router = router
        // Settled like an event, so what the root starts while launching
        // (a gate routing from a replayed stream) is on the first page.
        _ = await Settlement.run(timeout: configuration.settleTimeout) {
            await router.launch(from: session)
        }
        return session
    }

    // MARK: - Handlers

    /// A page: navigates the session's tree to the path, then renders it
    /// (or, for `Accept: application/json`, snapshots it).
    ///
    /// Only a page view starts a session: a `GET` that accepts HTML, for a
    /// path some napkin claims. Anything else without a session (`HEAD`,
    /// JSON, a missing file such as `/favicon.ico`) is answered from a tree
    /// that is torn down at once — nothing is kept and no cookie is set.
    ///
    /// For a session that exists, only a page view or a JSON request (a
    /// program asking for the tree at a path) navigates its tree. Anything
    /// else — `HEAD`, a favicon or image request (`Sec-Fetch-Dest`) — is
    /// answered without moving it, so it can never change what the session's
    /// pages show or where their forms return.
    func page(_ request: Request) async -> Response {
        let path = WebPath(request.path)
        let pageView = PageResponder.isPageView(request)
        if let session = existingSession(for: request) {
            guard pageView || (request.method == .get && PageResponder.wantsJSON(request)) else {
                return request.method == .head
                    ? Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"])
                    : Response.text("Not Found", status: .notFound)
            }
            let claimed = await navigate(session, to: path)
            return respond(request, session: session, path: path, claimed: claimed)
        }
        let session = await launchSession()
        let claimed = await navigate(session, to: path)
        var response = respond(request, session: session, path: path, claimed: claimed)
        if claimed, pageView {
            for old in store.insert(session) { await old.terminate() }
            response.setCookie(SessionCookie.make(id: session.id, secure: configuration.secureCookies))
        } else {
            await session.terminate()
        }
        return response
    }

    private func navigate(_ session: WebSession, to path: WebPath) async -> Bool {
        let (claimed, _) = await Settlement.run(timeout: configuration.settleTimeout) {
            await RequestSession.$current.withValue(session) {
                await moveTree(session, to: path)
            }
        }
        session.flush()
        return claimed
    }

    private func moveTree(_ session: WebSession, to path: WebPath) async -> Bool {
        if session.currentPath != path {
            session.currentPath = path
            session.root?.forgetRenders()
        }
        guard let router = session.router as? any WebRouting else { return path.isRoot }
        return await router.navigate(to: path)
    }

    private func respond(_ request: Request, session: WebSession, path: WebPath, claimed: Bool) -> Response {
        var response: Response
        if PageResponder.wantsJSON(request) {
            response = treeResponse(session, path: path, claimed: claimed)
        } else {
            let body = claimed ? session.renderRoot() : configuration.notFoundBody
            let page = configuration.layout.render(
                body: body, csrfToken: session.csrfToken, eventID: session.lastEventID, eventsPath: WebSession.eventsPath)
            response = .html(page.rendered, status: claimed ? .ok : .notFound)
        }
        // A session without an open tab keeps only its page between
        // requests: enough to answer an unchanged page at once, and a change
        // anywhere below still drops it.
        if session.streamCount == 0, let root = session.root {
            for child in root.children.values { child.forgetRenders() }
        }
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    private func treeResponse(_ session: WebSession, path: WebPath, claimed: Bool) -> Response {
        struct Body: Encodable {
            let path: String
            let found: Bool
            let tree: TreeSnapshot?
        }
        let body = Body(path: path.description, found: claimed, tree: session.router.map { TreeSnapshot(router: $0) })
        let bytes = (try? SafeJSON.data(body, pretty: true)) ?? Array("{}".utf8)
        return Response(
            status: claimed ? .ok : .notFound,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            body: .bytes(bytes))
    }

    /// A form post: checks the session, the CSRF token and the origin, runs
    /// the fragment's action, waits for it to settle, then answers `204` to
    /// napkin's client or `303` back to the page.
    func action(_ request: Request) async throws -> Response {
        guard let session = existingSession(for: request) else {
            throw HTTPError(.forbidden, "Your session has ended. Reload the page to start a new one.")
        }
        let fields = try request.formFields()
        func field(_ name: String) -> String? { fields.last { $0.name == name }?.value }

        let token = request.headers["X-CSRF-Token"] ?? field("_csrf") ?? ""
        guard SecureToken.constantTimeEquals(token, session.csrfToken) else {
            throw HTTPError(.forbidden, "Invalid or missing CSRF token.")
        }
        if let origin = request.headers["Origin"], !OriginCheck.isSameOrigin(origin, host: request.headers["Host"]) {
            throw HTTPError(.forbidden, "Cross-origin form posts are refused.")
        }
        guard let fragment = field("_fragment").flatMap(session.fragment(id:)) else {
            throw HTTPError(.notFound, "Unknown fragment: it may have left the page. Reload the page.")
        }
        guard let action = field("_action").flatMap(fragment.action(named:)) else {
            throw HTTPError(.notFound, "Unknown action.")
        }
        let idBefore = session.id
        _ = try await Settlement.run(timeout: configuration.settleTimeout) {
            try await RequestSession.$current.withValue(session) {
                try await action.run(request)
            }
        }
        session.flush()
        var response: Response =
            request.headers["X-Napkin"] == "1" ? Response(status: .noContent) : .redirect(to: ReturnPath.sanitize(field("_return")))
        if session.id != idBefore {
            response.setCookie(SessionCookie.make(id: session.id, secure: configuration.secureCookies))
        }
        return response
    }

    /// The session's event stream; `204` (which tells `EventSource` to stop)
    /// when there is no session — the stream never creates one.
    /// A `HEAD` gets the stream's headers and opens nothing.
    func events(_ request: Request) -> Response {
        guard let session = existingSession(for: request) else {
            return Response(status: .noContent)
        }
        guard request.method == .get else {
            return Response(status: .ok, headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"])
        }
        let lastEventID = (request.headers["Last-Event-ID"] ?? request.query["last-event-id"]).flatMap(LastEventID.parse)
        let stream = session.openStream(lastEventID: lastEventID)
        return .eventStream(channel: stream, heartbeat: configuration.heartbeat)
    }
}
