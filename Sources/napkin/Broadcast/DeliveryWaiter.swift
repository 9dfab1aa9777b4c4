@_spi(Napkin) import NapkinSupport

/// Counts acknowledgements of one awaited delivery and wakes the sender when
/// all have arrived or the timeout passes, whichever comes first.
final class DeliveryWaiter: Sendable {
    private struct State {
        var expected = 0
        var acknowledged = 0
        var armed = false
        var expired = false
        var sender: CheckedContinuation<Void, Never>?

        var isDone: Bool { expired || (armed && acknowledged >= expected) }
    }

    private let state = Locked(State())

    /// One more subscriber to wait for; called before ``wait(timeout:)``.
    func expect() {
        state.withLock { $0.expected += 1 }
    }

    /// A subscriber came back for more, or went away.
    func acknowledge() {
        let sender: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.acknowledged += 1
            guard state.isDone else { return nil }
            defer { state.sender = nil }
            return state.sender
        }
        sender?.resume()
    }

    /// Waits until every expected subscriber acknowledged, or `timeout`.
    func wait(timeout: Duration) async -> DeliveryReport {
        let done = state.withLock { state -> Bool in
            state.armed = true
            return state.isDone
        }
        if done { return report() }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.expire()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (sender: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.isDone { return true }
                    state.sender = sender
                    return false
                }
                if done { sender.resume() }
            }
        } onCancel: {
            expire()
        }
        timer.cancel()
        return report()
    }

    private func report() -> DeliveryReport {
        state.withLock { state in
            DeliveryReport(subscribers: state.expected, acknowledged: min(state.acknowledged, state.expected))
        }
    }

    private func expire() {
        let sender: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.expired = true
            defer { state.sender = nil }
            return state.sender
        }
        sender?.resume()
    }
}
