@_spi(Napkin) import NapkinSupport

/// The cookies of one test browser, shared by its tabs; a stream told to
/// reconnect waits here for the cookie the rotating response brings.
final class CookieJar: Sendable {
    private struct State {
        var cookies: [String: String] = [:]
        var waiters: [(name: String, old: String?, changed: Promise<Void>)] = []
    }

    private let state = Locked(State())

    var all: [String: String] { state.withLock { $0.cookies } }

    subscript(name: String) -> String? {
        state.withLock { $0.cookies[name] }
    }

    func set(_ name: String, _ value: String?) {
        let ready = state.withLock { state in
            state.cookies[name] = value
            let ready = state.waiters.filter { $0.name == name && $0.old != value }
            state.waiters.removeAll { $0.name == name && $0.old != value }
            return ready
        }
        for waiter in ready { waiter.changed.resolve(()) }
    }

    /// Returns once cookie `name` is no longer `old`. Cancellation does not
    /// end the wait: bound it with `withDeadline`.
    func waitForChange(of name: String, from old: String?) async {
        let changed = Promise<Void>()
        let waiting = state.withLock { state in
            guard state.cookies[name] == old else { return false }
            state.waiters.append((name, old, changed))
            return true
        }
        if waiting { await changed.value() }
    }
}
