#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Napkin) import NapkinSupport
import napkin
import Synchronization

/// A small pool of connections to one Redis server.
///
/// Each connection has a thread of its own that makes hiredis's blocking
/// calls, so a command suspends its caller without holding a thread
/// of Swift's cooperative pool. Connections open lazily, on their first
/// command, within ``RedisConfiguration/connectTimeout``; a command is
/// answered within ``RedisConfiguration/commandTimeout``.
///
/// When the server cannot be reached, or a connection breaks, the command
/// throws ``RedisError/unreachable(_:)`` and that connection is dropped; the
/// next command connects again. So while Redis is down commands fail fast,
/// and once it is back they succeed, with no restart. A command whose
/// connection broke while it was in flight may or may not have run.
///
/// Cancelling the calling task does not abort a command already queued: it
/// runs, and its caller is resumed when it is done.
public final class RedisClient: Sendable {
    /// Where the client connects.
    public let configuration: RedisConfiguration
    private let workers: [ConnectionWorker]
    private let reachability: RedisReachability
    // Which worker a tie goes to next; a pthread lock (`Locked`).
    private let turn = Locked(0)
    private let commandsRun = Atomic<Int>(0)
    private let commandsFailed = Atomic<Int>(0)

    /// A client for `configuration`; it connects on its first command.
    public init(configuration: RedisConfiguration = RedisConfiguration()) {
        // A write to a connection the server closed must fail, not kill
        // the process.
        signal(SIGPIPE, SIG_IGN)
        self.configuration = configuration
        let count = max(1, configuration.connections)
        let reachability = RedisReachability()
        self.reachability = reachability
        workers = (0..<count).map { index in
            ConnectionWorker(configuration: configuration, name: "napkin redis \(index)", reachability: reachability)
        }
    }

    /// A client for a `redis://host:port/db` URL (see
    /// ``RedisConfiguration/init(url:)``).
    public convenience init(url: String) throws {
        try self.init(configuration: RedisConfiguration(url: url))
    }

    deinit {
        for worker in workers { worker.stop() }
    }

    /// Runs one command, such as `["SET", "key", "value"]`, and returns its
    /// reply. Throws ``RedisError/server(_:)`` for an error reply,
    /// ``RedisError/unreachable(_:)`` when the server cannot answer, and
    /// ``RedisError/shutDown`` after ``shutdown()``.
    public func command(_ arguments: [String]) async throws -> RedisReply {
        try await command(arguments.map { Array($0.utf8) })
    }

    /// Runs one command given as raw arguments, for binary payloads.
    public func command(_ arguments: [[UInt8]]) async throws -> RedisReply {
        commandsRun.add(1, ordering: .relaxed)
        do {
            return try await pickWorker().run(arguments)
        } catch {
            commandsFailed.add(1, ordering: .relaxed)
            throw error
        }
    }

    /// What the client has done so far: for metrics.
    public var statistics: RedisStatistics {
        let opened = workers.map { $0.connectionsOpened.load(ordering: .relaxed) }
        return RedisStatistics(
            commands: commandsRun.load(ordering: .relaxed), errors: commandsFailed.load(ordering: .relaxed),
            reconnects: opened.reduce(0) { $0 + max(0, $1 - 1) })
    }

    /// Whether Redis answered the client's last attempt to reach it (a
    /// command, or a connection attempt), without a round trip: cheap enough
    /// for a readiness probe. When that outcome is older than a second, or
    /// there is none yet, a `PING` goes out in the background (one at a
    /// time), so a later look sees whether the server went away or is back.
    public var isReachable: Bool {
        if reachability.isStale(after: .seconds(1)), reachability.beginCheck() {
            Task { [self] in
                _ = try? await command(["PING"])
                reachability.endCheck()
            }
        }
        return reachability.isReachable
    }

    /// Closes every connection and ends the client's threads; commands
    /// still queued throw ``RedisError/shutDown``. Returns once the threads
    /// have ended.
    public func shutdown() async {
        for worker in workers { await worker.stopAndWait() }
    }

    private func pickWorker() -> ConnectionWorker {
        let start = turn.withLock { turn in
            turn = (turn + 1) % workers.count
            return turn
        }
        var best = workers[start]
        var bestLoad = best.load
        if bestLoad == 0 { return best }
        for offset in 1..<workers.count {
            let worker = workers[(start + offset) % workers.count]
            let load = worker.load
            if load < bestLoad {
                best = worker
                bestLoad = load
                if load == 0 { break }
            }
        }
        return best
    }
}
