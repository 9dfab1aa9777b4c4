/// The live sessions of an app, with idle expiry and a cap that evicts the
/// least recently used.
@MainActor
final class SessionStore {
    private var sessions: [String: WebSession] = [:]
    private let idleTimeout: Duration
    private let capacity: Int
    private let clock = ContinuousClock()
    /// Added to the clock's time; tests move time forward with it.
    var offset: Duration = .zero
    private var now: ContinuousClock.Instant { clock.now + offset }

    init(idleTimeout: Duration, capacity: Int) {
        self.idleTimeout = idleTimeout
        self.capacity = capacity
    }

    var count: Int { sessions.count }

    /// The live session with `id`, marked as just used; `nil` for unknown,
    /// malformed or expired ids.
    func session(id: String?) -> WebSession? {
        guard let id, SecureToken.isWellFormed(id), let session = sessions[id] else { return nil }
        let now = self.now
        guard !isIdle(session, now: now) else { return nil }
        session.lastSeen = now
        return session
    }

    /// A new session; when the store is full, the least recently used
    /// sessions are returned for eviction.
    func create() -> (session: WebSession, evicted: [WebSession]) {
        let session = WebSession(now: now)
        var evicted: [WebSession] = []
        if sessions.count >= capacity {
            let overflow = sessions.count - capacity + 1
            let oldest = sessions.values.sorted { $0.lastSeen < $1.lastSeen }.prefix(overflow)
            for old in oldest {
                sessions[old.id] = nil
                evicted.append(old)
            }
        }
        sessions[session.id] = session
        return (session, evicted)
    }

    /// Removes and returns the session with `id`.
    func remove(id: String) -> WebSession? {
        sessions.removeValue(forKey: id)
    }

    /// Removes and returns every session idle for longer than the timeout.
    func removeIdle() -> [WebSession] {
        let now = self.now
        let idle = sessions.values.filter { isIdle($0, now: now) }
        for session in idle { sessions[session.id] = nil }
        return idle
    }

    /// A session is idle when no tab has its event stream open and no
    /// request came for the timeout: an open tab keeps its session alive.
    private func isIdle(_ session: WebSession, now: ContinuousClock.Instant) -> Bool {
        session.streamCount == 0 && now - session.lastSeen >= idleTimeout
    }

    /// Every live session.
    var all: [WebSession] { Array(sessions.values) }
}
