/// Turns a synchronous view event into an asynchronous listener call.
///
/// Views handle events synchronously on the main actor; listeners are
/// interactor actors. `dispatch` starts the call and returns at once:
///
/// ```swift
/// dispatch { await listener?.didTapLogout() }
/// ```
@MainActor
@discardableResult
public func dispatch(
    priority: TaskPriority? = nil,
    _ operation: sending @escaping @isolated(any) () async -> Void
) -> Task<Void, Never> {
    Task(priority: priority, operation: operation)
}
