import Dispatch

/// A task executor that runs jobs on the main queue, for main-actor code
/// that waits on a continuation.
///
/// A resumed continuation does not go straight back to the actor that
/// awaited it: the task goes to its task executor first (for a request,
/// the server loop that read it), then hops to the actor. From the main
/// actor that is a trip through another thread and back for every wait,
/// and while a waiter travels, what queues behind it waits longer. With
/// this executor preferred for the wait, the task comes back on the main
/// queue, already on the main actor.
final class MainQueueExecutor: TaskExecutor {
    static let shared = MainQueueExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(
                isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: MainQueueExecutor.shared.asUnownedTaskExecutor())
        }
    }

    /// Waits on a continuation `body` hands out, from main-actor code, and
    /// comes back on the main actor without a detour.
    @MainActor
    static func wait(_ body: (CheckedContinuation<Void, Never>) -> Void) async {
        await withTaskExecutorPreference(shared) {
            await withCheckedContinuation(body)
        }
    }
}
