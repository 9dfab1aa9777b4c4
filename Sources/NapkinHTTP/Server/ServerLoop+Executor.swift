@_spi(Napkin) import NapkinSupport

/// A server loop is a task executor: a request's handler runs on the loop
/// that read the request, whenever it is not on an actor.
///
/// A page handler hops to the main actor, where routers live. Run on the
/// global pool, it would then come back to a pool thread for what follows
/// (middleware, the hand-over of the response) and wake the loop from
/// there: three threads a request. On its loop it comes back straight to
/// the loop, which sends the response on the same turn: two.
extension ServerLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = jobs.withLock { jobs -> Bool in
            guard jobs.open else { return false }
            jobs.queue.append(job)
            return true
        }
        // A loop that has ended leaves its tasks to the global pool.
        if queued {
            jobsQueued.store(true, ordering: .releasing)
            wake()
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }

    /// Runs the jobs queued so far (on the loop's thread); those they queue
    /// run on the next turn, which their `wake()` has already asked for.
    func runJobs() {
        guard jobsQueued.load(ordering: .relaxed), jobsQueued.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let executor = asUnownedTaskExecutor()
        for job in takeJobs(closing: false) { job.runSynchronously(on: executor) }
    }

    /// Closes the queue as the loop ends: what is queued, and anything
    /// queued later, goes to the global pool.
    func closeJobs() {
        for job in takeJobs(closing: true) { globalConcurrentExecutor.enqueue(job) }
    }

    private func takeJobs(closing: Bool) -> [UnownedJob] {
        jobs.withLock { jobs in
            if closing { jobs.open = false }
            defer { jobs.queue = [] }
            return jobs.queue
        }
    }
}

/// The jobs waiting for a loop's next turn.
struct LoopJobs {
    var queue: [UnownedJob] = []
    var open = true
}
