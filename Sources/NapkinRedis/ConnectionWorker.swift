import Foundation
@_spi(Napkin) import NapkinSupport
import napkin
import Synchronization

/// One connection of a ``RedisClient`` and the thread that owns it. Commands
/// queue here and run one at a time on that thread, so hiredis's blocking
/// calls never hold a thread of Swift's cooperative pool; each caller is
/// gets its reply through a promise.
final class ConnectionWorker: Sendable {
    private struct Job {
        let arguments: [[UInt8]]
        let queuedAt: ContinuousClock.Instant
        let reply: Promise<Result<RedisReply, any Error>>
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var busy = false
        var stopping = false

        var queued: Int { jobs.count - head }

        mutating func next() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    // The queue, shared by callers and the worker thread; a pthread lock
    // (`Locked`) so ThreadSanitizer sees it.
    private let state = Locked(State())
    /// Resolved once the thread has closed the connection and ended.
    private let exited = Promise<Void>()
    private let wake = Wakeup.make()
    private let configuration: RedisConfiguration
    /// Where every connection attempt and command outcome is noted.
    private let reachability: RedisReachability

    init(configuration: RedisConfiguration, name: String, reachability: RedisReachability = RedisReachability()) {
        self.configuration = configuration
        self.reachability = reachability
        Thread.detachNewThread { [self] in
            Thread.current.name = name
            run()
        }
    }

    /// Connections this worker opened: its first, and one per reconnect.
    let connectionsOpened = Atomic<Int>(0)

    /// Commands queued or running: the client gives new ones to the least loaded.
    var load: Int { state.withLock { $0.queued + ($0.busy ? 1 : 0) } }

    /// Runs `arguments` on this connection.
    func run(_ arguments: [[UInt8]]) async throws -> RedisReply {
        let reply = Promise<Result<RedisReply, any Error>>()
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.jobs.append(Job(arguments: arguments, queuedAt: .now, reply: reply))
            return true
        }
        guard accepted else { throw RedisError.shutDown }
        wake.wake()
        return try await reply.value().get()
    }

    /// Asks the thread to fail what is queued, close the connection and end.
    func stop() {
        state.withLock { $0.stopping = true }
        wake.wake()
    }

    /// Stops, and returns once the thread has closed the connection and ended.
    func stopAndWait() async {
        stop()
        await exited.value()
    }

    // MARK: The worker thread

    private func run() {
        // Touched only on this thread.
        var connection: RedisConnection?
        var lastFailure: (at: ContinuousClock.Instant, error: RedisError)?
        while true {
            wake.wait()
            while true {
                let (job, stopping) = state.withLock { state -> (Job?, Bool) in
                    if state.stopping { return (nil, true) }
                    let job = state.next()
                    state.busy = job != nil
                    return (job, false)
                }
                if stopping {
                    connection = nil
                    finish()
                    return
                }
                guard let job else { break }
                job.reply.resolve(Result { try execute(job, connection: &connection, lastFailure: &lastFailure) })
            }
        }
    }

    private func execute(
        _ job: Job,
        connection: inout RedisConnection?,
        lastFailure: inout (at: ContinuousClock.Instant, error: RedisError)?
    ) throws -> RedisReply {
        if let open = connection, open.isStale { connection = nil }
        if connection == nil {
            // A command waits for one connection attempt at most: those
            // queued before the last attempt failed fail with it, at once.
            if let failure = lastFailure, job.queuedAt < failure.at { throw failure.error }
            do {
                connection = try RedisConnection(configuration)
                connectionsOpened.add(1, ordering: .relaxed)
                lastFailure = nil
            } catch let error as RedisError {
                lastFailure = (.now, error)
                reachability.record(reachable: false)
                throw error
            }
        }
        do {
            let reply = try connection!.command(job.arguments)
            reachability.record(reachable: true)
            return reply
        } catch let error as RedisError {
            if case .unreachable = error {
                connection = nil
                lastFailure = (.now, error)
                reachability.record(reachable: false)
            } else {
                reachability.record(reachable: true)
            }
            throw error
        }
    }

    private func finish() {
        let jobs = state.withLock { state -> [Job] in
            var jobs: [Job] = []
            while let job = state.next() { jobs.append(job) }
            state.busy = false
            return jobs
        }
        for job in jobs { job.reply.resolve(.failure(RedisError.shutDown)) }
        exited.resolve(())
    }
}
