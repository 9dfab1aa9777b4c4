@_spi(Napkin) import NapkinSupport
import Synchronization

/// Waits for the consequences of an event to be applied.
///
/// A platform layer runs an event (a form post calling a listener) inside
/// ``run(timeout:isolation:_:)``. While it runs, napkin's own primitives report the
/// work they start to the settlement:
///
/// - a broadcaster `send` made inside the scope counts each subscriber until
///   it has processed the value and come back for the next one;
/// - a task bound with `task { }` inside the scope (or while a subscriber
///   processes such a value), or started with ``dispatch(priority:_:)``,
///   counts until it ends or is parked: nothing of it queued or running on
///   its executor or on the main actor, as when it waits on an
///   `AsyncStream`, an `Observations` sequence or a timer that napkin does
///   not own.
///
/// `run` returns when all of that is done, or when `timeout` passes. So a
/// browser redirected after a post, or a test doing POST then GET, sees the
/// new state without sleeping.
public final class Settlement: Sendable {
    private struct State {
        var outstanding = 0
        var finished = false
        /// A task started inside has no job left: it may be parked.
        var idle = false
        /// The settlement's wait for its next change, while it waits.
        var waiter: Promise<Void>?
        /// The executors of the tasks started inside, to find parked ones.
        var executors: [SettlingExecutor] = []
    }

    private let state = Locked(State())

    private init() {}

    /// How a settlement ended.
    public struct Report: Sendable, Equatable {
        /// `true` when every tracked consequence finished before the timeout.
        public let settled: Bool
        /// How many tracked consequences were still running at the end.
        public let outstanding: Int
    }

    /// Runs `body`, then waits until the work it set off through napkin's
    /// primitives is done, for at most `timeout`.
    public static func run<R>(
        timeout: Duration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> (result: R, report: Report) {
        let settlement = Settlement()
        let root = settlement.enter()
        let result: R
        do {
            // The closure names `isolation` to run where the caller runs: one
            // that does not is nonisolated, and would hop off the caller's actor.
            result = try await Token.$current.withValue(root) {
                _ = isolation
                return try await body()
            }
        } catch {
            root?.leave()
            _ = await settlement.finish(timeout: .zero)
            throw error
        }
        root?.leave()
        let report = await settlement.finish(timeout: timeout)
        return (result, report)
    }

    /// The settlement that work started now should report to, if any.
    static var current: Settlement? {
        if let settlement = DeliveryContext.token()?.settlement, !settlement.isFinished {
            return settlement
        }
        if let settlement = Token.current?.settlement, !settlement.isFinished {
            return settlement
        }
        return nil
    }

    private var isFinished: Bool { state.withLock { $0.finished } }

    /// Counts one more piece of outstanding work; `nil` once finished.
    func enter() -> Token? {
        let entered = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.outstanding += 1
            return true
        }
        return entered ? Token(settlement: self) : nil
    }

    /// The executor for a task that `token` counts: the task leaves the
    /// settlement when it ends, or when the settlement finds it parked.
    func executor(for token: Token) -> SettlingExecutor {
        let executor = SettlingExecutor(token: token)
        state.withLock { state in
            if !state.finished { state.executors.append(executor) }
        }
        return executor
    }

    /// Called by a task's executor when it has run the task's last queued job.
    func noteIdle() {
        let waiter: Promise<Void>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.idle = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resolve(())
    }

    fileprivate func leave() {
        let waiter: Promise<Void>? = state.withLock { state in
            state.outstanding -= 1
            guard state.outstanding == 0, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resolve(())
    }

    /// Runs where the caller runs (`isolation`): a nonisolated async method
    /// would take a main-actor caller off the main actor and back, a trip
    /// through another thread for every event that settles at once.
    private func finish(timeout: Duration, isolation: isolated (any Actor)? = #isolation) async -> Report {
        // Most events settle as their body returns: no timer for them.
        let settledAlready = state.withLock { state -> Bool in
            guard state.outstanding <= 0 else { return false }
            state.finished = true
            return true
        }
        if settledAlready { return Report(settled: true, outstanding: 0) }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire()
        }
        while let idle = await nextIdleExecutors() {
            if idle.isEmpty { continue }
            // A task with no job left on its executor may still be queued on
            // the main actor: once the main actor has run what it had queued,
            // a task that has not moved is parked.
            await Task { @MainActor in }.value
            for (executor, epoch) in idle { executor.leaveIfStill(at: epoch) }
        }
        timer.cancel()
        return state.withLock { state in
            state.finished = true
            state.executors = []
            return Report(settled: state.outstanding == 0, outstanding: max(state.outstanding, 0))
        }
    }

    /// Waits until the work is done, the time is up, or a task went idle;
    /// for the last, the idle tasks' executors and epochs, else `nil`.
    private func nextIdleExecutors(isolation: isolated (any Actor)? = #isolation) async -> [(SettlingExecutor, UInt64)]? {
        let change = Promise<Void>()
        let ready = state.withLock { state -> Bool in
            if state.outstanding == 0 || state.finished || state.idle { return true }
            state.waiter = change
            return false
        }
        if !ready { await change.value() }
        return state.withLock { state -> [(SettlingExecutor, UInt64)]? in
            if state.outstanding == 0 || state.finished { return nil }
            state.idle = false
            return state.executors.compactMap { executor in executor.idleEpoch.map { (executor, $0) } }
        }
    }

    private func expire() {
        let waiter: Promise<Void>? = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resolve(())
    }
}

extension Settlement {
    /// One outstanding piece of work; leaving it twice counts once.
    ///
    /// A bound task keeps its token for life (a task-local), so the token
    /// holds its settlement weakly: a finished settlement is freed at once,
    /// not kept by every task it once waited for.
    final class Token: Sendable {
        /// The token of the work the current task is doing for a settlement.
        @TaskLocal static var current: Token?

        // Strong while the settlement runs: `run` keeps it until it finishes.
        private let weakSettlement: WeakSettlement
        private let left = Atomic(false)

        init(settlement: Settlement) {
            weakSettlement = WeakSettlement(settlement)
        }

        var settlement: Settlement? { weakSettlement.value }

        func leave() {
            if left.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
                settlement?.leave()
            }
        }

        /// Whether this work has left its settlement.
        var hasLeft: Bool { left.load(ordering: .relaxed) }
    }

    private struct WeakSettlement: Sendable {
        // `weak let` keeps the struct `Sendable`: the reference never changes.
        weak let value: Settlement?
        init(_ value: Settlement) { self.value = value }
    }
}
