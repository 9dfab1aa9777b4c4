@_spi(Napkin) import NapkinSupport

/// The live sessions of an app: idle expiry, and a cap that evicts the
/// least recently used — in an order that protects the people using it.
///
/// Sessions live in four recency lists, evicted in this order:
/// 1. *new*: served one page and never came back (no second request, no
///    open stream). This is all a flood of cookieless requests can make, so
///    a flood only ever pushes out its own sessions; they also expire
///    sooner (``NapkinConfiguration/newSessionIdleTimeout``).
/// 2. *resting*: came back, holds no values, and no tab holds an event
///    stream right now.
/// 3. *valued*: holds values (someone signed in), without an open stream:
///    sessions that hold nothing cannot push it out, however many come back.
/// 4. *watching*: a tab holds an open stream — somebody is looking at the
///    page. Never evicted while a session of the other lists is left.
///
/// Every operation is O(1) in the number of sessions (a lookup table and
/// linked lists), so a request past the cap costs the same as the first.
@MainActor
final class SessionStore {
    /// Which list a session is in, in the order they are evicted.
    enum Tier: Int, CaseIterable {
        case fresh, resting, valued, watching
    }

    private var sessions: [String: WebSession] = [:]
    private var lists = Array(repeating: RecencyList<WebSession>(), count: Tier.allCases.count)
    /// Ids rotated away from, until their sessions' records would have
    /// expired: a request still carrying one finds no session, here or in
    /// the records, even while the rotation is being written.
    private var retired: [String: ContinuousClock.Instant] = [:]
    private var retiredOrder = WriteOrder<String, ContinuousClock.Instant>()
    /// Every tab of the sessions held here.
    let tabs: TabRegistry
    private let idleTimeout: Duration
    private let newIdleTimeout: Duration
    private let capacity: Int
    private let clock = ContinuousClock()
    /// Added to the clock's time; tests move time forward with it.
    var offset: Duration = .zero
    var now: ContinuousClock.Instant { clock.now + offset }

    init(idleTimeout: Duration, newIdleTimeout: Duration? = nil, capacity: Int, maxTabs: Int = .max) {
        self.idleTimeout = idleTimeout
        self.newIdleTimeout = min(newIdleTimeout ?? idleTimeout, idleTimeout)
        self.capacity = max(1, capacity)
        tabs = TabRegistry(capacity: maxTabs)
    }

    var count: Int { sessions.count }

    /// The live session with `id`, marked as just used; `nil` for unknown,
    /// malformed or expired ids.
    func session(id: String?) -> WebSession? {
        guard let id, SecureToken.isWellFormed(id), let session = sessions[id] else { return nil }
        let now = self.now
        guard !isIdle(session, now: now) else { return nil }
        session.lastSeen = now
        session.returned = true
        relist(session)
        return session
    }

    /// Whether `id` was rotated away from: no request may bring it back.
    /// The session `id` if held, without counting this as a use of it (for
    /// onlookers such as the dashboard).
    func peek(id: String) -> WebSession? {
        sessions[id]
    }

    func isRetired(_ id: String) -> Bool {
        guard let until = retired[id] else { return false }
        return until > now
    }

    /// Adds `session`; when the store is full, returns the sessions evicted
    /// to make room (least recently used, in the order of ``Tier``).
    func insert(_ session: WebSession) -> [WebSession] {
        var evicted: [WebSession] = []
        while sessions.count >= capacity, let victim = lists.lazy.compactMap(\.tail).first {
            remove(victim)
            evicted.append(victim)
        }
        session.lastSeen = now
        session.store = self
        sessions[session.id] = session
        session.tier = tier(of: session)
        lists[session.tier.rawValue].pushFront(session)
        for tab in session.tabs { tabs.added(tab) }
        return evicted
    }

    /// Removes and returns the session with `id`.
    func remove(id: String) -> WebSession? {
        guard let session = sessions[id] else { return nil }
        remove(session)
        return session
    }

    /// Whether `session` is held here, holds no tab and no stream, and has
    /// had no request for `grace` (none can be on its way to opening a tab).
    func isUnviewed(_ session: WebSession, grace: Duration) -> Bool {
        sessions[session.id] === session && session.tabs.isEmpty && session.streamCount == 0 && now - session.lastSeen >= grace
    }

    /// Removes `session` when it is unviewed (``isUnviewed(_:grace:)``),
    /// and returns it; otherwise `nil`.
    func removeUnviewed(_ session: WebSession, grace: Duration) -> WebSession? {
        guard isUnviewed(session, grace: grace) else { return nil }
        remove(session)
        return session
    }

    private func remove(_ session: WebSession) {
        sessions[session.id] = nil
        lists[session.tier.rawValue].remove(session)
        for tab in session.tabs { tabs.removed(tab) }
        session.store = nil
    }

    /// Gives `session` a new id; the old one stops working at once, and
    /// stays dead for as long as a record under it could have lived.
    func rotate(_ session: WebSession, to id: String) {
        let old = session.id
        let until = now + idleTimeout
        retired[old] = until
        retiredOrder.append(old, stamp: until)
        forgetExpiredRetirements()
        guard sessions[old] === session else { return }
        sessions[old] = nil
        sessions[id] = session
    }

    private func forgetExpiredRetirements() {
        let now = self.now
        while let oldest = retiredOrder.oldest(isCurrent: { retired[$0] == $1 }), oldest.stamp <= now {
            _ = retiredOrder.removeOldest(isCurrent: { retired[$0] == $1 })
            retired[oldest.key] = nil
        }
    }

    /// A session's open-stream count changed: keep it in the right list.
    /// Idle time counts from when its last stream closed.
    func streamsChanged(_ session: WebSession) {
        guard sessions[session.id] === session else { return }
        // A tab that opened its stream came back; one released without
        // ever opening one (a page view and nothing more) did not.
        if session.streamCount > 0 { session.returned = true }
        if session.streamCount == 0, session.tier == .watching { session.lastSeen = max(session.lastSeen, now) }
        relist(session)
    }

    /// Puts `session` at the front of the list it belongs in now.
    private func relist(_ session: WebSession) {
        lists[session.tier.rawValue].remove(session)
        session.tier = tier(of: session)
        lists[session.tier.rawValue].pushFront(session)
    }

    /// Removes and returns every session idle for longer than its timeout:
    /// they are the oldest of their lists, so each walk stops at the first
    /// session still in use.
    func removeIdle() -> [WebSession] {
        let now = self.now
        var idle: [WebSession] = []
        for tier in [Tier.fresh, .resting, .valued] {
            while let oldest = lists[tier.rawValue].tail, isIdle(oldest, now: now) {
                remove(oldest)
                idle.append(oldest)
            }
        }
        forgetExpiredRetirements()
        return idle
    }

    /// A session is idle when no tab has its event stream open and no
    /// request came for its timeout: an open tab keeps its session alive.
    private func isIdle(_ session: WebSession, now: ContinuousClock.Instant) -> Bool {
        session.streamCount == 0 && now - session.lastSeen >= (session.returned ? idleTimeout : newIdleTimeout)
    }

    private func tier(of session: WebSession) -> Tier {
        if session.streamCount > 0 { return .watching }
        if session.values.holdsValues { return .valued }
        return session.returned ? .resting : .fresh
    }

    /// Every live session.
    var all: [WebSession] { Array(sessions.values) }

    /// The sessions with an open stream, most recently used first.
    var watched: [WebSession] {
        var found: [WebSession] = []
        var next = lists[Tier.watching.rawValue].head
        while let session = next {
            found.append(session)
            next = session.older
        }
        return found
    }
}
