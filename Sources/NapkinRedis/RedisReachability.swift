import Synchronization

/// What a client's connections last learned of their server: whether it
/// answered, and when. Connections record every connection attempt and
/// every command's outcome, so reading it costs no round trip.
final class RedisReachability: Sendable {
    private enum State: UInt8 { case unknown, reachable, unreachable }

    private let state = Atomic<UInt8>(State.unknown.rawValue)
    /// Nanoseconds from `origin` to the last outcome recorded.
    private let recordedAt = Atomic<Int64>(0)
    /// A background check is on its way.
    private let checking = Atomic<Bool>(false)
    private let origin = ContinuousClock.now

    /// Notes that the server answered (`true`) or could not be reached.
    func record(reachable: Bool) {
        state.store((reachable ? State.reachable : .unreachable).rawValue, ordering: .relaxed)
        recordedAt.store(nanoseconds(since: origin), ordering: .relaxed)
    }

    /// Whether the last outcome was an answer.
    var isReachable: Bool { state.load(ordering: .relaxed) == State.reachable.rawValue }

    /// Whether the last outcome is older than `age` (or there is none).
    func isStale(after age: Duration) -> Bool {
        guard state.load(ordering: .relaxed) != State.unknown.rawValue else { return true }
        let age = age.components.seconds * 1_000_000_000 + age.components.attoseconds / 1_000_000_000
        return nanoseconds(since: origin) - recordedAt.load(ordering: .relaxed) > age
    }

    /// Claims the one background check; `false` while another runs.
    func beginCheck() -> Bool {
        checking.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }

    func endCheck() {
        checking.store(false, ordering: .relaxed)
    }

    private func nanoseconds(since origin: ContinuousClock.Instant) -> Int64 {
        let (seconds, attoseconds) = (ContinuousClock.now - origin).components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
