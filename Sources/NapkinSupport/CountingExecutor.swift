import Synchronization

/// A task executor that counts the jobs it is given and runs them on the
/// global pool (SPI, like ``Locked``): napkin's tests prefer it to see when
/// a task leaves its actor, which costs a trip through this executor.
@_spi(Napkin) public final class CountingExecutor: TaskExecutor {
    private let enqueued = Atomic(0)

    public init() {}

    /// How many jobs it has been given so far.
    public var count: Int { enqueued.load(ordering: .sequentiallyConsistent) }

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .sequentiallyConsistent)
        globalConcurrentExecutor.enqueue(job)
    }
}
