import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import napkin

/// One browser session: the root of its own napkin tree.
///
/// napkin creates a session on the first page view without a valid cookie.
/// The session holds what belongs to the person — the app's session scope
/// (a component built once per session, with services such as who is signed
/// in) — and one ``WebTab`` per open tab, each with the app's root napkin
/// launched for it:
///
/// ```
/// WebSession (session scope: AuthService, …)
/// ├── WebTab (its path, fragments, streams) → LaunchNapkin → …
/// └── WebTab …
/// ```
@MainActor
public final class WebSession: RecencyLinked {
    /// The path napkin's forms post to.
    public nonisolated static let actionPath = "/_napkin/action"
    /// The path of the tabs' event streams.
    public nonisolated static let eventsPath = "/_napkin/events"
    /// The path napkin's client posts its tab's goodbye to, as its page
    /// goes (`pagehide`): the tab's grace starts at once.
    public nonisolated static let leavePath = "/_napkin/leave"
    /// The path of napkin's client script, which every ``NapkinApp`` serves
    /// and ``PageLayout`` loads by default.
    public nonisolated static let scriptPath = "/_napkin/napkin.js"

    /// The session id, as in the `napkin_session` cookie. It changes when
    /// the app calls ``rotateID()`` (at login and logout).
    public private(set) var id: String
    /// The token every form of this session must carry. It changes with
    /// the id.
    public private(set) var csrfToken: String
    /// The session's typed values, kept in its record.
    public let values: SessionValues
    /// The session's open tabs, least recently used first.
    public private(set) var tabs: [WebTab] = []

    /// The app's session scope (its session component), shared by every tab.
    let scope: SessionScope
    var lastSeen: ContinuousClock.Instant
    /// When the record's expiry was last extended (never, for a new session).
    var recordTouched: ContinuousClock.Instant?

    /// The store holding this session (none while it is being tried out
    /// for a request that may not keep it).
    weak var store: SessionStore?
    /// The store's recency list links, and which list the session is in.
    var newer: WebSession?
    var older: WebSession?
    var tier = SessionStore.Tier.fresh
    /// Whether the session was used again after its first page.
    var returned = false

    private let maxStreams: Int
    private var nextStreamNumber: UInt64 = 0
    private(set) var streamCount = 0

    /// Each stream's queued bytes at most, and the bytes every stream of
    /// the app may queue between them.
    private let streamBytes: (limit: Int, budget: ByteBudget?)

    /// What the app counts (patches sent), when it keeps metrics.
    var metrics: AppMetrics?

    init(
        values: SessionValues, scope: SessionScope, now: ContinuousClock.Instant, maxStreams: Int = 8,
        streamBytes: (limit: Int, budget: ByteBudget?) = (.max, nil)
    ) {
        self.streamBytes = streamBytes
        let record = values.current
        id = record.id
        csrfToken = record.csrfToken
        self.values = values
        self.scope = scope
        lastSeen = now
        self.maxStreams = max(1, maxStreams)
    }

    /// Gives the session a new id and CSRF token, so an id somebody else
    /// knew (planted before login, or seen before logout) stops working at
    /// once: a request still carrying it finds no session, in this process
    /// or in the session records, and is never sent the new cookie. Only
    /// the response to the request that rotated it carries the new cookie.
    /// Open streams get no patch from here on; once that response is on
    /// its way they are told to reconnect, which a browser holding the new
    /// cookie does into the same tabs. Call it when who is signed in
    /// changes — usually through ``rotateCurrentID()``.
    public func rotateID() {
        let fresh = SecureToken.make()
        store?.rotate(self, to: fresh)
        id = fresh
        csrfToken = SecureToken.make()
        values.rename(to: fresh, csrfToken: csrfToken)
        RequestSession.ticket?.rotated = true
        for tab in tabs {
            let retired = tab.sessionRotated()
            guard !retired.isEmpty else { continue }
            retiredStreams += retired
            streamCount -= retired.count
            store?.tabs.streamsChanged(tab)
        }
        store?.streamsChanged(self)
        wakeStreamWaiters()
    }

    /// Streams opened under an id the session rotated away from: they get
    /// no patches, and are ended by ``endRetiredStreams()``.
    private var retiredStreams: [Channel<EventFrame>] = []

    /// Tells every stream opened under a rotated-away id to reconnect, and
    /// ends it: the browser that holds the new cookie comes back to its
    /// tab, anyone else finds no session.
    func endRetiredStreams() {
        let streams = retiredStreams
        retiredStreams.removeAll()
        for stream in streams {
            stream.offer(EventFrame(event: WireProtocol.Event.reconnect, data: "rotated"))
            stream.finish()
        }
    }

    /// Sends every open stream (retired ones too) `frame`'s lines and ends
    /// it: the server is draining (``NapkinApp/drain()``).
    func endStreams(with frame: EventFrame) {
        var streams = retiredStreams
        retiredStreams.removeAll()
        for tab in tabs {
            let pairs = tab.streams.pairs
            for (number, stream) in pairs where tab.removeStream(number) != nil { streams.append(stream) }
            streamCount -= pairs.count
            store?.tabs.streamsChanged(tab)
        }
        store?.streamsChanged(self)
        wakeStreamWaiters()
        for stream in streams {
            _ = stream.offer(frame)
            stream.finish()
        }
    }

    /// Turns at running actions: one at a time, in arrival order, so two
    /// posts of one session (two logins at once) never interleave, and the
    /// second sees what the first did (a rotated id, for one).
    let actionTurns = Turns()
    /// The form tokens this session's posts spent (so a replay runs once).
    var formTokens = FormTokenLedger()

    /// The session of the request being handled: set while napkin runs a
    /// page request or a form's action, so code below the action (an
    /// interactor signing a user in) can reach it.
    public nonisolated static var current: WebSession? { RequestSession.current }

    /// Rotates the id of the session whose request is being handled (see
    /// ``rotateID()``); does nothing outside a request.
    public nonisolated static func rotateCurrentID() async {
        guard let session = current else { return }
        await session.rotateID()
    }

    /// The tab used most recently.
    public var mostRecentTab: WebTab? { tabs.last }

    /// The path of the most recently used tab.
    public var currentPath: WebPath { mostRecentTab?.currentPath ?? .root }

    // MARK: - Tabs

    /// A new tab, now the most recent, in use by the caller (who lets go of
    /// it with `users -= 1`); its tree is the caller's to launch.
    /// `id` (well-formed, not in use) brings back a tab this process does
    /// not hold — released, or opened by a process that has since stopped.
    /// At most `limit` tabs are kept: the tabs released to make room (the
    /// least recently used nobody is using, tabs without a stream first)
    /// are returned, for the caller to terminate.
    func addTab(now: ContinuousClock.Instant, id: String? = nil, limit: Int) -> (WebTab, released: [WebTab]) {
        var released: [WebTab] = []
        while tabs.count >= max(1, limit) {
            let idle = tabs.filter { $0.users == 0 }
            guard let victim = idle.first(where: { $0.streamCount == 0 }) ?? idle.first else { break }
            detach(victim)
            released.append(victim)
        }
        let reused = id.flatMap { SecureToken.isWellFormed($0) && tab(id: $0) == nil ? $0 : nil }
        let added = WebTab(session: self, now: now, id: reused)
        added.users = 1
        tabs.append(added)
        store?.tabs.added(added)
        return (added, released)
    }

    /// The tab with `id`, if the session still has it.
    func tab(id: String?) -> WebTab? {
        guard let id, SecureToken.isWellFormed(id) else { return nil }
        return tabs.first { $0.id == id }
    }

    /// Marks `tab` as just used.
    func touch(_ tab: WebTab, now: ContinuousClock.Instant) {
        tab.lastUsed = now
        store?.tabs.used(tab)
        guard tabs.last !== tab, let index = tabs.firstIndex(where: { $0 === tab }) else { return }
        tabs.append(tabs.remove(at: index))
    }

    /// The tabs past their `grace` without a stream that nobody is using
    /// (at most the session's tab limit to look at).
    func expiredTabs(now: ContinuousClock.Instant, grace: TabGrace) -> [WebTab] {
        tabs.filter { $0.isPastGrace(now: now, grace: grace) }
    }

    /// Takes `tab` out of the session, for the caller to terminate: its
    /// streams no longer count as the session's.
    func detach(_ tab: WebTab) {
        guard let index = tabs.firstIndex(where: { $0 === tab }) else { return }
        tabs.remove(at: index)
        streamCount -= tab.streamCount
        store?.tabs.removed(tab)
    }

    /// The mounted fragment with `id` and its tab.
    func fragment(id: String) -> (WebTab, WebViewController)? {
        for tab in tabs.reversed() {
            if let fragment = tab.fragment(id: id) { return (tab, fragment) }
        }
        return nil
    }

    // MARK: - Streams

    /// Opens an event stream for `tab`. When the tab's `Last-Event-ID` is
    /// behind, it first gets the whole page as one patch. A session holds at
    /// most `maxStreams` streams across its tabs: past that the oldest is
    /// told it was replaced (`event: end`) and closed.
    func openStream(for tab: WebTab, lastEventID: UInt64?) -> Channel<EventFrame> {
        nextStreamNumber += 1
        let number = nextStreamNumber
        // A patch per fragment at most (a newer one replaces an unsent one);
        // a tab so far behind that the page's fragments overflow this, or
        // its bytes the stream's or the app's byte budget, ends its stream,
        // and reconnects to a fresh copy of the page.
        let stream = Channel<EventFrame>(
            policy: .finishWhenFull(capacity: 256), byteLimit: streamBytes.limit, budget: streamBytes.budget,
            weigh: { $0.byteCount })
        stream.onTermination { [weak self, weak tab] in
            Task { @MainActor in
                guard let tab else { return }
                self?.streamClosed(number, of: tab)
            }
        }
        while streamCount >= maxStreams, let oldest = oldestStream() {
            if let closed = oldest.tab.removeStream(oldest.number) {
                streamCount -= 1
                store?.tabs.streamsChanged(oldest.tab)
                Self.supersede(closed)
            }
        }
        tab.addStream(stream, number: number, lastEventID: lastEventID)
        streamCount += 1
        store?.tabs.streamsChanged(tab)
        store?.streamsChanged(self)
        return stream
    }

    private func oldestStream() -> (tab: WebTab, number: UInt64)? {
        var oldest: (tab: WebTab, number: UInt64)?
        for tab in tabs {
            for (number, _) in tab.streams.pairs where number < (oldest?.number ?? .max) { oldest = (tab, number) }
        }
        return oldest
    }

    /// Ends a stream that a newer tab pushed out, telling its client why
    /// so it does not reconnect and push another tab out in turn.
    private static func supersede(_ stream: Channel<EventFrame>) {
        stream.offer(EventFrame(event: WireProtocol.Event.end, data: "superseded"))
        stream.finish()
    }

    private func streamClosed(_ number: UInt64, of tab: WebTab) {
        guard tab.session === self, tabs.contains(where: { $0 === tab }), tab.removeStream(number) != nil else { return }
        streamCount -= 1
        // The tab's grace counts from when its last stream went away, and
        // the session's idle time too (the store sets it).
        if tab.streamCount == 0 { tab.lastUsed = max(tab.lastUsed, store?.now ?? tab.lastUsed) }
        store?.tabs.streamsChanged(tab)
        store?.streamsChanged(self)
        wakeStreamWaiters()
    }

    /// Nobody views `tab` from now on (its page said goodbye): its streams
    /// end and its grace starts, unless it already runs (a page that left
    /// before its stream opened gets the short grace too). A page shown
    /// again within the grace reconnects to the tab; later, it finds it
    /// released.
    func leave(_ tab: WebTab, now: ContinuousClock.Instant) {
        guard tab.session === self else { return }
        tab.awaitsFirstStream = false
        guard tab.streamCount > 0 else { return }
        let streams = tab.streams.pairs
        for (number, _) in streams { _ = tab.removeStream(number) }
        streamCount -= streams.count
        tab.lastUsed = max(tab.lastUsed, now)
        store?.tabs.streamsChanged(tab)
        store?.streamsChanged(self)
        wakeStreamWaiters()
        for (_, stream) in streams { stream.finish() }
    }

    private func wakeStreamWaiters() {
        for waiter in streamWaiters where waiter.count == streamCount { waiter.reached.resolve(()) }
        streamWaiters.removeAll { $0.count == streamCount }
    }

    private var streamWaiters: [(count: Int, reached: Promise<Void>)] = []

    /// Waits until the session has exactly `count` open streams (for tests
    /// of stream lifecycles: a closed stream leaves the session on the next
    /// main-actor turn).
    func waitForStreamCount(_ count: Int) async {
        if streamCount == count { return }
        let reached = Promise<Void>()
        streamWaiters.append((count, reached))
        await reached.value()
    }

    /// Tears the session down: every tab's tree is deactivated (every bound
    /// task cancelled), every fragment unmounted, every stream ended.
    func terminate() async {
        let tabs = self.tabs
        for tab in tabs { store?.tabs.removed(tab) }
        self.tabs.removeAll()
        streamCount = 0
        endRetiredStreams()
        for tab in tabs { await tab.terminate() }
    }
}

/// The task-local behind ``WebSession/current`` (a task-local cannot live
/// in a main-actor class).
enum RequestSession {
    @TaskLocal static var current: WebSession?
    /// The request being handled, which learns whether it rotated the id.
    @TaskLocal static var ticket: RequestTicket?
}

/// One request's part in its session's life: whether it rotated the id,
/// and so may hand out the new cookie.
@MainActor
final class RequestTicket {
    var rotated = false
}

