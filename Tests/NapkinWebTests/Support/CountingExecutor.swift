import Synchronization

/// A task executor that counts the jobs it is given and runs them on the
/// global pool: a test prefers it to see when a task leaves its actor.
final class CountingExecutor: TaskExecutor {
    private let enqueued = Atomic(0)
    var count: Int { enqueued.load(ordering: .sequentiallyConsistent) }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .sequentiallyConsistent)
        globalConcurrentExecutor.enqueue(job)
    }
}
