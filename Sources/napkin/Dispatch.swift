/// Turns a synchronous view event into an asynchronous listener call: the
/// bridge from a main-actor event handler to an interactor (an actor).
///
/// It starts `operation` in a new task, on the caller's actor as
/// `Task { }` would, and returns at once. Capture the
/// listener weakly, as views hold it, so a napkin detached before the task
/// runs is simply not called:
///
/// ```swift
/// dispatch { [weak listener] in await listener?.didTapLogout() }
/// ```
///
/// Inside a ``Settlement`` (a web action, a navigation), the settlement
/// waits for the dispatched call as for a bound task.
@MainActor
@discardableResult
public func dispatch(
    priority: TaskPriority? = nil,
    @_inheritActorContext _ operation: sending @escaping @isolated(any) () async -> Void
) -> Task<Void, Never> {
    guard let token = Settlement.current?.enter(), let settlement = token.settlement else {
        return Task(priority: priority, operation: operation)
    }
    let executor = settlement.executor(for: token)
    return Task(executorPreference: executor, priority: priority) {
        await Settlement.Token.$current.withValue(token) { await operation() }
        executor.leave()
    }
}
