@_spi(Napkin) import NapkinSupport
import Dispatch

/// The task executor of one task started inside a ``Settlement`` (a bound
/// task, a dispatched call): it runs the task's jobs and tells the
/// settlement when none is left, so the settlement can find out whether the
/// task is parked on input napkin does not own (an `AsyncStream`, a timer).
///
/// A task with this preference runs its nonisolated code, its child tasks
/// and the default actors it enters here; only main-actor work (and actors
/// with their own executors) runs elsewhere, which ``Settlement`` covers by
/// waiting for the main actor once before it calls the task parked.
final class SettlingExecutor: TaskExecutor, Sendable {
    private struct State {
        var running = 0
        /// Bumped by every job, so a settlement can tell whether the task
        /// moved while it looked away.
        var epoch: UInt64 = 0
        /// The task's share of the settlement; `nil` once left.
        var token: Settlement.Token?
    }

    private let state: Locked<State>

    init(token: Settlement.Token) {
        state = Locked(State(token: token))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        state.withLock {
            $0.running += 1
            $0.epoch &+= 1
        }
        let job = UnownedJob(job)
        let qos: DispatchQoS.QoSClass = job.priority.rawValue >= TaskPriority.high.rawValue ? .userInitiated : .default
        DispatchQueue.global(qos: qos).async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.ran()
        }
    }

    private func ran() {
        let idle = state.withLock { state -> Settlement? in
            state.running -= 1
            guard state.running == 0 else { return nil }
            return state.token?.settlement
        }
        idle?.noteIdle()
    }

    /// When no job of the task is queued or running here: the epoch to
    /// compare after looking away; `nil` while it runs or once it left.
    var idleEpoch: UInt64? {
        state.withLock { state in
            guard state.running == 0, let token = state.token, !token.hasLeft else { return nil }
            return state.epoch
        }
    }

    /// Leaves the settlement if the task has not moved since `epoch`.
    /// Returns whether it left.
    @discardableResult
    func leaveIfStill(at epoch: UInt64) -> Bool {
        let token = state.withLock { state -> Settlement.Token? in
            guard state.running == 0, state.epoch == epoch else { return nil }
            defer { state.token = nil }
            return state.token
        }
        token?.leave()
        return token != nil
    }

    /// Leaves the settlement (the task ended or said it awaits input).
    func leave() {
        state.withLock { state -> Settlement.Token? in
            defer { state.token = nil }
            return state.token
        }?.leave()
    }
}
