@_spi(Napkin) import NapkinSupport

/// Counts acknowledgements of one awaited delivery and wakes the sender when
/// all have arrived or the timeout passes, whichever comes first.
final class DeliveryWaiter: Sendable {
    private struct State {
        var expected = 0
        var acknowledged = 0
        var armed = false

        var isDone: Bool { armed && acknowledged >= expected }
    }

    private let state = Locked(State())
    private let allAcknowledged = Promise<Void>()

    /// One more subscriber to wait for; called before ``wait(timeout:)``.
    func expect() {
        state.withLock { $0.expected += 1 }
    }

    /// A subscriber came back for more, or went away.
    func acknowledge() {
        let done = state.withLock { state in
            state.acknowledged += 1
            return state.isDone
        }
        if done { allAcknowledged.resolve(()) }
    }

    /// Waits until every expected subscriber acknowledged, or `timeout`
    /// (or the sender's cancellation).
    func wait(timeout: Duration) async -> DeliveryReport {
        let done = state.withLock { state -> Bool in
            state.armed = true
            return state.isDone
        }
        if !done { _ = await allAcknowledged.value(within: timeout) }
        return state.withLock { state in
            DeliveryReport(subscribers: state.expected, acknowledged: min(state.acknowledged, state.expected))
        }
    }
}
