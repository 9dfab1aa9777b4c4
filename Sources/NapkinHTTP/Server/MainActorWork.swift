/// Runs a handler's main-actor work so that its own awaits stay on the main
/// actor.
///
/// A handler's task prefers its server loop as task executor (see
/// ``HTTPServer``). The Swift runtime keeps that preference while the task
/// runs on the main actor, and checks it at every call: from main-actor code,
/// each await of another main-actor async function then goes round the main
/// queue as a job of its own, with whatever else is queued there in between.
/// A page view made a dozen such calls; while it was away, the next request
/// for its tab found the tab busy and waited. Run through ``run(_:)``, the
/// work is a task of its own with no preference, its main-actor calls
/// continue at once, and the handler gets the result back on its loop.
///
/// ```swift
/// router.get("/cart") { request in
///     try await MainActorWork.run { try await store.cartPage(for: request) }
/// }
/// ```
///
/// A handler that makes one main-actor call (`await MainActor.run { ... }`,
/// one `@MainActor` function that does not await more of them) needs none
/// of this. A route whose whole answer is main-actor work is better
/// registered with ``HTTPRouter/onMainActor(_:_:_:)``: with middleware that
/// can finish synchronously, the server runs it as one main-actor task that
/// sends the answer itself, and no handler task waits for it.
public enum MainActorWork {
    /// Runs `body` on the main actor, in a task with no executor preference;
    /// cancelling the caller cancels it.
    public static func run<T: Sendable>(_ body: @escaping @MainActor @Sendable () async throws -> T) async throws -> T {
        // An unstructured task does not inherit the caller's task executor
        // preference; a child task would.
        let task = Task { @MainActor in try await body() }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
