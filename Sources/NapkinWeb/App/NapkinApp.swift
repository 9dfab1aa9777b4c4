import NapkinHTTP
import Synchronization
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
/// var router = HTTPRouter()
/// router.get("/api/health") { _ in .text("ok") }
/// app.mount(on: &router, publicDirectory: "Public")
/// try await HTTPServer(configuration: .init(port: 8080), responder: router).runUntilSignalled()
/// ```
///
/// Every page URL is answered from a tab's tree (each page view gets its
/// own); `GET /_napkin/events?tab=…` streams that tab's patches;
/// `POST /_napkin/action` runs a fragment's action; `POST /_napkin/leave`
/// is a page's goodbye to its tab; `GET /_napkin/napkin.js`
/// is napkin's client script; `GET /healthz` and `GET /readyz` are for
/// load balancers (see ``drain()``).
@MainActor
public final class NapkinApp {
    /// How the app serves its sessions.
    public nonisolated let configuration: NapkinConfiguration

    /// Builds a session's scope (its session component, and how its tabs'
    /// trees are launched) on its values.
    let makeScope: @MainActor (SessionValues) -> SessionScope
    let store: SessionStore
    /// The bytes every event stream of the app may queue between them.
    nonisolated let streamBytes: ByteBudget
    /// Set once by ``drain()``.
    nonisolated let drainStarted = Atomic<Bool>(false)
    /// What the app counts, when its configuration names a registry.
    nonisolated let metrics: AppMetrics?
    private var sweepers: [Task<Void, Never>] = []
    /// Sessions being rebuilt from their records, so concurrent requests of
    /// one session rebuild it once.
    private var restoring: [String: Task<WebSession?, any Error>] = [:]

    /// Creates an app with a session scope: `session` builds each browser
    /// session's component once (from `component` and the session's
    /// ``/NapkinStorage/SessionValues``), the home of what belongs to the
    /// person; `root` builds each tab's tree from it.
    ///
    /// ```swift
    /// let app = NapkinApp(component: AppComponent()) { app, values in
    ///     SessionComponent(dependency: app, values: values)
    /// } root: { session in
    ///     await LaunchBuilder(dependency: session).build()
    /// }
    /// ```
    public init<AppComponent: Sendable, SessionComponent: Sendable>(
        component: AppComponent,
        configuration: NapkinConfiguration = NapkinConfiguration(),
        session: @escaping @MainActor (AppComponent, SessionValues) -> SessionComponent,
        root: @escaping @MainActor (SessionComponent) async -> any LaunchRouting
    ) {
        self.configuration = configuration
        makeScope = { values in SessionScope(session(component, values), root: root) }
        store = SessionStore(
            idleTimeout: configuration.sessionIdleTimeout, newIdleTimeout: configuration.newSessionIdleTimeout,
            capacity: configuration.maxSessions, maxTabs: configuration.maxTabs)
        streamBytes = ByteBudget(limit: configuration.maxQueuedStreamBytes)
        metrics = configuration.metrics.map { AppMetrics(registry: $0) }
    }

    /// Creates an app without a session scope: every tab's tree is built
    /// by `root` from the app-wide `component`, so state that `root`'s
    /// components share belongs to one tab. Use
    /// ``init(component:configuration:session:root:)`` for state that every
    /// tab of a session shares.
    public convenience init<AppComponent: Sendable>(
        component: AppComponent,
        configuration: NapkinConfiguration = NapkinConfiguration(),
        root: @escaping @MainActor (AppComponent) async -> any LaunchRouting
    ) {
        self.init(component: component, configuration: configuration, session: { component, _ in component }, root: root)
    }

    // MARK: - Mounting

    /// Adds napkin's routes to `router`: the event stream, the action
    /// endpoint, napkin's client script (`napkin.js`, served from the
    /// module itself: an app needs no copy of it), and — for every other
    /// path — static files from `publicDirectory`, then the session's
    /// pages. Also adds napkin's security headers and error mapping, and
    /// starts evicting idle sessions.
    public nonisolated func mount(on router: inout HTTPRouter, publicDirectory: String? = nil) {
        let files = publicDirectory.map { StaticFiles(directory: $0) }
        mountProbes(on: &router)
        router.use(SecurityHeaders(contentSecurityPolicy: configuration.contentSecurityPolicy))
        router.use(ErrorMiddleware(format: configuration.logFormat))
        // Answered at once (no task), for GET and HEAD alike.
        router.get(WebSession.scriptPath) { request in ClientScript.respond(to: request) }
        router.on(.head, WebSession.scriptPath) { request in ClientScript.respond(to: request) }
        // Pages, actions and streams are main-actor work made of many
        // main-actor calls: each runs as one main-actor task.
        router.onMainActor(.get, WebSession.eventsPath) { [self] request in try await self.events(request) }
        router.onMainActor(.post, WebSession.actionPath) { [self] request in try await self.action(request) }
        router.onMainActor(.post, WebSession.leavePath) { [self] request in try await self.leave(request) }
        // Static files first, ahead of routing and pages (security headers
        // and the access log still apply); the page fallback serves any
        // file the fast path passed on.
        if let files { router.fastPath { request in files.lookup(request) } }
        router.fallback(PageResponder(app: self, files: files))
        if let registry = configuration.metrics { mountMetrics(registry, on: &router) }
        Task { @MainActor in self.startSweeping() }
    }

    /// Two sweeps: idle sessions now and then, unviewed tabs often, so a
    /// closed tab deactivates soon after its grace. Each costs what it
    /// finds (both walk recency lists from their oldest end).
    private func startSweeping() {
        guard sweepers.isEmpty else { return }
        let shortest = min(configuration.sessionIdleTimeout, configuration.newSessionIdleTimeout)
        let sessions = configuration.idleSweepInterval ?? min(shortest / 4, .seconds(60))
        let tabs = configuration.idleSweepInterval ?? min(configuration.tabGracePeriod / 8, .seconds(1))
        sweepers = [
            sweep(every: sessions) { app in await app.evictIdleSessionsOnly() },
            sweep(every: tabs) { app in await app.releaseUnviewedTabs() },
        ]
        if let metrics { sweepers.append(probeLag(into: metrics.mainActorLag)) }
    }

    private func sweep(every interval: Duration, _ body: @escaping @MainActor (NapkinApp) async -> Void) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: max(interval, .milliseconds(50)))
                guard let self else { return }
                await body(self)
            }
        }
    }

    /// Stops the idle sweep and tears every session down.
    public func shutdown() async {
        for sweeper in sweepers { sweeper.cancel() }
        sweepers.removeAll()
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

    /// Ends the session `id` now: its tabs' trees are deactivated and
    /// released, and its record is deleted, so no process brings it back.
    /// (Sessions that go idle only leave this process's memory; their
    /// records expire on their own.)
    public func evict(sessionID id: String) async throws {
        if let session = store.remove(id: id) {
            metrics?.evicted(.ended)
            await session.terminate()
        }
        do {
            try await configuration.sessionRecords.delete(id: id)
        } catch {
            throw Self.sessionsUnavailable
        }
    }

    /// Tears down every session idle for longer than the configured timeout,
    /// and releases every tab nobody has viewed for its grace period (see
    /// ``NapkinConfiguration/tabGracePeriod``). A session left without a
    /// tab leaves this process's memory: it lives on in its record, and its
    /// next request brings it back, values and all.
    public func evictIdleSessions() async {
        await evictIdleSessionsOnly()
        await releaseUnviewedTabs()
    }

    private func evictIdleSessionsOnly() async {
        for session in store.removeIdle() {
            metrics?.evicted(.idle)
            await session.terminate()
        }
        // A session somebody is looking at is in use, however long ago its
        // last request: its record must not expire under it. (Half the
        // idle timeout between touches, and the sweep runs at least every
        // quarter of it.)
        for session in store.watched { try? await keepRecord(of: session, every: configuration.sessionIdleTimeout / 2) }
        await configuration.sessionRecords.removeExpired()
    }

    /// The configuration's tab graces.
    var tabGrace: TabGrace {
        TabGrace(streamed: configuration.tabGracePeriod, new: configuration.newTabGracePeriod)
    }

    /// Releases the tabs past their grace, oldest first, and lets their
    /// sessions leave memory when they have no tab left.
    private func releaseUnviewedTabs() async {
        let grace = configuration.tabGracePeriod
        let expired = store.tabs.expired(now: store.now, grace: tabGrace)
        let owners = expired.compactMap(\.session)
        metrics?.released(.grace, count: expired.count)
        await release(expired)
        for session in owners where store.isUnviewed(session, grace: grace) {
            // A session that came back keeps its record for the idle
            // timeout from now: being watched was being used (one that
            // served a single page keeps its short expiry). A record store
            // out of reach keeps the session here for now.
            if session.returned { guard (try? await keepRecord(of: session)) != nil else { continue } }
            guard let unviewed = store.removeUnviewed(session, grace: grace) else { continue }
            metrics?.evicted(.unviewed)
            await unviewed.terminate()
        }
    }

    /// Moves the sessions' clock forward, for tests of idle eviction.
    func advanceSessionClock(by duration: Duration) {
        store.offset += duration
    }

    /// A JSON-ready snapshot of the napkin tree of the session's most
    /// recently used tab.
    public func snapshot(sessionID id: String) -> TreeSnapshot? {
        store.session(id: id)?.mostRecentTab?.snapshot
    }

    /// What a request's session store failure answers.
    nonisolated static let sessionsUnavailable = HTTPError(
        .serviceUnavailable, "Sessions are unavailable right now. Try again in a moment.")

    /// The request's session: held here, or rebuilt from its record (after
    /// a restart, or when another process served it until now). Throws a
    /// `503` when the session store cannot be reached.
    func existingSession(for request: Request) async throws -> WebSession? {
        guard let id = request.cookie(configuration.sessionCookieName), SecureToken.isWellFormed(id), !store.isRetired(id) else {
            return nil
        }
        let session: WebSession
        if let held = store.session(id: id) {
            session = held
        } else if let restored = try await restoreSession(id: id) {
            session = restored
        } else {
            return nil
        }
        try await keepRecord(of: session)
        return session
    }

    /// Extends the session record's expiry to the idle timeout from now,
    /// unless it was extended less than `interval` ago (and at once when a
    /// new session comes back, from the short expiry of a new one).
    private func keepRecord(of session: WebSession, every interval: Duration? = nil) async throws {
        let now = store.now
        if let touched = session.recordTouched, now - touched < interval ?? configuration.sessionIdleTimeout / 10 { return }
        session.recordTouched = now
        do {
            try await configuration.sessionRecords.touch(id: session.id, ttl: configuration.sessionIdleTimeout)
        } catch {
            session.recordTouched = nil
            throw Self.sessionsUnavailable
        }
    }

    private func restoreSession(id: String) async throws -> WebSession? {
        if let pending = restoring[id] { return try await pending.value }
        let task = Task { @MainActor in try await self.loadSession(id: id) }
        restoring[id] = task
        defer { restoring[id] = nil }
        return try await task.value
    }

    private func loadSession(id: String) async throws -> WebSession? {
        let record: SessionRecord?
        do {
            record = try await configuration.sessionRecords.load(id: id)
        } catch {
            throw Self.sessionsUnavailable
        }
        // The id may have been rotated away from while the record loaded.
        // A record that is not well-formed is no record (whatever store
        // handed it over).
        guard let record, record.id == id, record.defect == nil, !store.isRetired(id) else { return nil }
        if let held = store.session(id: id) { return held }
        let session = makeSession(record)
        session.returned = true
        await insert(session)
        return session
    }

    private func makeSession(_ record: SessionRecord) -> WebSession {
        let values = SessionValues(record: record, store: configuration.sessionRecords, ttl: configuration.sessionIdleTimeout)
        let session = WebSession(
            values: values, scope: makeScope(values), now: store.now, maxStreams: configuration.maxStreamsPerSession,
            streamBytes: (configuration.maxQueuedBytesPerStream, streamBytes))
        session.metrics = metrics
        return session
    }

    /// A session with its first tab, not yet in the store or the session
    /// records: a request that turns out not to be a page view never keeps it.
    func launchSession() async -> (WebSession, WebTab) {
        let session = makeSession(SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make()))
        return (session, await launchTab(in: session))
    }

    /// Keeps a new session: its record first (a `503` when that fails),
    /// then the session itself.
    func keep(_ session: WebSession) async throws {
        do {
            try await configuration.sessionRecords.save(session.values.current, ttl: configuration.newSessionIdleTimeout)
        } catch {
            await session.terminate()
            throw Self.sessionsUnavailable
        }
        await insert(session)
    }

    /// Adds `session` to the store, tearing down the sessions it evicts.
    private func insert(_ session: WebSession) async {
        let evicted = store.insert(session)
        metrics?.evicted(.capacity, count: evicted.count)
        for old in evicted { await old.terminate() }
    }

    /// Moves the session's record to its new id after a rotation, before
    /// the response with the new cookie goes out.
    /// The old record goes first: from then on no process can rebuild the
    /// session under the old id.
    func persistRotation(of session: WebSession, from oldID: String) async throws {
        guard session.id != oldID else { return }
        do {
            try await configuration.sessionRecords.delete(id: oldID)
            try await configuration.sessionRecords.save(session.values.current, ttl: configuration.sessionIdleTimeout)
        } catch {
            throw Self.sessionsUnavailable
        }
        session.recordTouched = store.now
    }

    /// Finishes a request that ran app code for `session`, which carried
    /// `oldID`: when the id rotated meanwhile, only the request that rotated
    /// it gets the new cookie (after the rotation is durable); any other is
    /// refused, so a request with a dead id never sees what came after.
    func finishRotation(
        of session: WebSession, from oldID: String, ticket: RequestTicket, response: inout Response
    ) async throws {
        guard session.id != oldID else { return }
        guard ticket.rotated else { throw Self.sessionEnded }
        try await persistRotation(of: session, from: oldID)
        response.setCookie(configuration.sessionCookie(id: session.id))
        // The CSRF token rotated too: the page that sent this request swaps
        // it into its forms (napkin.js), as forms it rendered before carry
        // the old one.
        response.headers[WireProtocol.Header.csrf] = session.csrfToken
        // The response is ready: the browser that sent it has the new cookie
        // before its streams come back.
        session.endRetiredStreams()
    }

    /// What a request whose session ended (or moved to a new id) answers.
    nonisolated static let sessionEnded = HTTPError(.forbidden, "Your session has ended. Reload the page to start a new one.")

    /// A new tab of `session`, its tree built from the session's scope and
    /// launched; `id` brings back a tab by its id (see `WebSession.addTab`).
    func launchTab(in session: WebSession, id: String? = nil) async -> WebTab {
        // Room under the server-wide cap first, then under the session's.
        let overflow = store.tabs.overflow(adding: 1)
        metrics?.released(.capacity, count: overflow.count)
        await release(overflow)
        let (tab, released) = session.addTab(now: store.now, id: id, limit: configuration.maxTabsPerSession)
        metrics?.released(.session_limit, count: released.count)
        // Launching is the tab's first navigation, taken before anything
        // suspends: a request that names the tab from here on waits for
        // the tree to be there.
        tab.beginFirstNavigation()
        defer { tab.endNavigation() }
        await terminate(released, of: session)
        let router = await session.scope.launch()
        tab.router = router
        // Settled like an event, so what the root starts while launching
        // (a gate routing from a replayed stream) is on the first page.
        let (_, report) = await Settlement.run(timeout: configuration.settleTimeout) {
            await RequestSession.$current.withValue(session) {
                await router.launch(from: tab)
            }
        }
        metrics?.settled(report, at: .launch)
        return tab
    }

    /// Takes `tabs` out of their sessions and tears them down.
    func release(_ tabs: [WebTab]) async {
        for tab in tabs {
            guard let session = tab.session else { continue }
            session.detach(tab)
            await terminate([tab], of: session)
        }
    }

    private func terminate(_ tabs: [WebTab], of session: WebSession) async {
        guard !tabs.isEmpty else { return }
        store.streamsChanged(session)
        for tab in tabs { await tab.terminate() }
    }
}
