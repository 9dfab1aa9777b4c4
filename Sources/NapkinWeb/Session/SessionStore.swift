/// The live sessions of an app: idle expiry, and a cap that evicts the
/// least recently used — in an order that protects the people using it.
///
/// Sessions live in three recency lists, evicted in this order:
/// 1. *new*: served one page and never came back (no second request, no
///    open stream). This is all a flood of cookieless requests can make, so
///    a flood only ever pushes out its own sessions; they also expire
///    sooner (``NapkinConfiguration/newSessionIdleTimeout``).
/// 2. *resting*: came back, but no tab holds an event stream right now.
/// 3. *watching*: a tab holds an open stream — somebody is looking at the
///    page. Never evicted while a session of the other lists is left.
///
/// Every operation is O(1) in the number of sessions (a lookup table and
/// linked lists), so a request past the cap costs the same as the first.
@MainActor
final class SessionStore {
    private var sessions: [String: WebSession] = [:]
    /// Sessions that served one page and never came back, most recent first.
    private var fresh = SessionList()
    /// Sessions that came back, without an open stream, most recent first.
    private var resting = SessionList()
    /// Sessions with at least one open stream, most recently used first.
    private var watching = SessionList()
    private let idleTimeout: Duration
    private let newIdleTimeout: Duration
    private let capacity: Int
    private let clock = ContinuousClock()
    /// Added to the clock's time; tests move time forward with it.
    var offset: Duration = .zero
    var now: ContinuousClock.Instant { clock.now + offset }

    init(idleTimeout: Duration, newIdleTimeout: Duration? = nil, capacity: Int) {
        self.idleTimeout = idleTimeout
        self.newIdleTimeout = min(newIdleTimeout ?? idleTimeout, idleTimeout)
        self.capacity = max(1, capacity)
    }

    var count: Int { sessions.count }

    /// The live session with `id`, marked as just used; `nil` for unknown,
    /// malformed or expired ids.
    func session(id: String?) -> WebSession? {
        guard let id, SecureToken.isWellFormed(id), let session = sessions[id] else { return nil }
        let now = self.now
        guard !isIdle(session, now: now) else { return nil }
        list(of: session) { $0.remove(session) }
        session.lastSeen = now
        session.returned = true
        list(of: session) { $0.pushFront(session) }
        return session
    }

    /// Adds `session`; when the store is full, returns the sessions evicted
    /// to make room (least recently used, those without an open stream first).
    func insert(_ session: WebSession) -> [WebSession] {
        var evicted: [WebSession] = []
        while sessions.count >= capacity, let victim = fresh.tail ?? resting.tail ?? watching.tail {
            remove(victim)
            evicted.append(victim)
        }
        session.lastSeen = now
        session.store = self
        sessions[session.id] = session
        session.watching = session.streamCount > 0
        list(of: session) { $0.pushFront(session) }
        return evicted
    }

    /// Removes and returns the session with `id`.
    func remove(id: String) -> WebSession? {
        guard let session = sessions[id] else { return nil }
        remove(session)
        return session
    }

    private func remove(_ session: WebSession) {
        sessions[session.id] = nil
        list(of: session) { $0.remove(session) }
        session.store = nil
    }

    /// Gives `session` a new id; the old one stops working at once.
    func rotate(_ session: WebSession, to id: String) {
        guard sessions[session.id] === session else { return }
        sessions[session.id] = nil
        sessions[id] = session
    }

    /// A session's open-stream count changed: keep it in the right list.
    /// Idle time counts from when its last stream closed.
    func streamsChanged(_ session: WebSession) {
        let watching = session.streamCount > 0
        guard sessions[session.id] === session, watching != session.watching else { return }
        list(of: session) { $0.remove(session) }
        session.watching = watching
        // A tab that opened its stream came back.
        session.returned = true
        if !watching { session.lastSeen = max(session.lastSeen, now) }
        list(of: session) { $0.pushFront(session) }
    }

    /// Removes and returns every session idle for longer than its timeout:
    /// they are the oldest of the new and resting lists, so each walk stops
    /// at the first session still in use.
    func removeIdle() -> [WebSession] {
        let now = self.now
        var idle: [WebSession] = []
        while let oldest = fresh.tail, isIdle(oldest, now: now) {
            remove(oldest)
            idle.append(oldest)
        }
        while let oldest = resting.tail, isIdle(oldest, now: now) {
            remove(oldest)
            idle.append(oldest)
        }
        return idle
    }

    /// A session is idle when no tab has its event stream open and no
    /// request came for its timeout: an open tab keeps its session alive.
    private func isIdle(_ session: WebSession, now: ContinuousClock.Instant) -> Bool {
        session.streamCount == 0 && now - session.lastSeen >= (session.returned ? idleTimeout : newIdleTimeout)
    }

    private func list(of session: WebSession, _ body: (inout SessionList) -> Void) {
        if session.watching {
            body(&watching)
        } else if session.returned {
            body(&resting)
        } else {
            body(&fresh)
        }
    }

    /// Every live session.
    var all: [WebSession] { Array(sessions.values) }
}
