import Synchronization

/// A task executor that counts the jobs it is given and runs them on the
/// global pool, for napkin's own tests (package access): they prefer it to
/// see when a task leaves its actor, which costs a trip through it.
package final class CountingExecutor: TaskExecutor {
    private let enqueued = Atomic(0)

    package init() {}

    /// How many jobs it has been given so far.
    package var count: Int { enqueued.load(ordering: .sequentiallyConsistent) }

    package func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .sequentiallyConsistent)
        globalConcurrentExecutor.enqueue(job)
    }
}
