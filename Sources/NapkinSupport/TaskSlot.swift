/// The one task an owner runs in the background (a feed it follows, a
/// loop it competes for, a stream it pumps), held so that it starts once
/// and stops with its owner (package access).
///
/// ``claim()`` reserves the slot before the owner awaits what the task
/// needs, so two callers racing to start it start one; a ``stop()`` that
/// comes while the task is being made cancels it as soon as it is held.
package final class TaskSlot: Sendable {
    private enum State {
        case empty
        case claimed(stopped: Bool)
        case running(Task<Void, Never>)
    }

    private let state = Locked(State.empty)

    package init() {}

    /// Reserves the empty slot for a task about to be made; `false` when a
    /// task holds it or is being made.
    package func claim() -> Bool {
        state.withLock { state in
            guard case .empty = state else { return false }
            state = .claimed(stopped: false)
            return true
        }
    }

    /// Holds `task`, made after a successful ``claim()``; cancels it at once
    /// when the slot was stopped meanwhile.
    package func hold(_ task: Task<Void, Never>) {
        let stopped = state.withLock { state -> Bool in
            if case .claimed(stopped: true) = state {
                state = .empty
                return true
            }
            state = .running(task)
            return false
        }
        if stopped { task.cancel() }
    }

    /// Starts the task `make` makes when the slot is empty; whether it did.
    @discardableResult
    package func start(_ make: () -> Task<Void, Never>) -> Bool {
        guard claim() else { return false }
        hold(make())
        return true
    }

    /// Holds `task` in place of whatever the slot held, which is cancelled.
    package func replace(with task: Task<Void, Never>) {
        let old = state.withLock { state -> Task<Void, Never>? in
            defer { state = .running(task) }
            if case .running(let old) = state { return old }
            return nil
        }
        old?.cancel()
    }

    /// Cancels the task held and empties the slot; the task, for an owner
    /// that waits for it to end.
    @discardableResult
    package func stop() -> Task<Void, Never>? {
        let task = state.withLock { state -> Task<Void, Never>? in
            switch state {
            case .empty:
                return nil
            case .claimed:
                state = .claimed(stopped: true)
                return nil
            case .running(let task):
                state = .empty
                return task
            }
        }
        task?.cancel()
        return task
    }
}
