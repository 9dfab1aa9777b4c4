import Foundation
import NapkinHTTP
import NapkinRedis
import NapkinWeb
import napkin

/// What Redis costs napkin, against the in-process defaults, side by side in
/// one run: a real `redis-server` on 127.0.0.1 (no persistence).
///
/// - per page: a new session's first page (its record is written), and the
///   page of a session this process does not hold (its record is read and
///   the tree rebuilt);
/// - per patch: one state change from a `SharedState` in one "process" to
///   its subscriber in another, through the bus.
enum RedisBenchmarks {
    static let pages = 1_000
    static let patches = 500

    static func run() async throws {
        print("\n## Redis (NapkinRedis) vs in-process")
        guard let server = try? startServer() else {
            print("redis: redis-server is not installed (scripts/setup --cluster)")
            return
        }
        let client = RedisClient(configuration: RedisConfiguration(host: "127.0.0.1", port: server.port))
        do {
            try await waitUntilUp(client)
            try await pageCosts(redis: client).print()
            try await patchCosts(redis: client).print()
        } catch {
            print("redis: \(error)")
        }
        await client.shutdown()
        // SIGKILL: a child may inherit a mask that blocks SIGTERM, and this
        // server keeps nothing anyway.
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
    }

    // MARK: - Pages

    @MainActor
    static func pageCosts(redis: RedisClient) async throws -> Table {
        var table = Table(
            "Per page, in-process (4-napkin tree), \(pages) pages each, median of 3 rounds",
            columns: ["page", "in memory (us)", "Redis (us)", "Redis costs (us)"])
        let stores: [any SessionRecordStore] = [InMemorySessionRecords(), RedisSessionRecords(client: redis)]
        var newSession: [[Double]] = [[], []]
        var restored: [[Double]] = [[], []]
        for _ in 0..<3 {
            for (index, store) in stores.enumerated() {
                // New sessions: each page view writes a record.
                let (app, router, _) = BenchApp.make(sessionRecords: store)
                var cookies: [String] = []
                let clock = ContinuousClock()
                var start = clock.now
                for _ in 0..<pages {
                    let response = try await router.respond(to: Request(method: .get, target: "/"))
                    cookies.append((response.headers["Set-Cookie"] ?? "").split(separator: ";").first.map(String.init) ?? "")
                }
                newSession[index].append((clock.now - start).seconds / Double(pages) * 1e6)
                await app.shutdown()
                // A second app with the same store stands for another process:
                // each page reads the record and rebuilds the session.
                let (other, otherRouter, _) = BenchApp.make(sessionRecords: store)
                start = clock.now
                for cookie in cookies {
                    let response = try await otherRouter.respond(to: Request(method: .get, target: "/", headers: ["Cookie": cookie]))
                    precondition(response.status == .ok && response.headers["Set-Cookie"] == nil, "the session was not restored")
                }
                restored[index].append((clock.now - start).seconds / Double(pages) * 1e6)
                await other.shutdown()
            }
        }
        for (name, samples) in [("new session (record written)", newSession), ("session from another process (record read)", restored)] {
            let memory = median(samples[0])
            let redis = median(samples[1])
            table.add(name, fmt(memory, 1), fmt(redis, 1), fmt(redis - memory, 1))
        }
        return table
    }

    // MARK: - Patches

    static func patchCosts(redis: RedisClient) async throws -> Table {
        var table = Table(
            "Per patch: a SharedState change from one process to a subscriber in another, \(patches) changes, latency",
            columns: ["bus", "p50 (us)", "p99 (us)"])
        let buses: [(String, any MessageBus)] = [("LocalBus (one process)", LocalBus()), ("RedisBus", RedisBus(client: redis))]
        for (name, bus) in buses {
            let sender = SharedState(channel: "bench", bus: bus, initial: 0, origin: "sender")
            let receiver = SharedState(channel: "bench", bus: bus, initial: 0, origin: "receiver")
            await sender.start()
            await receiver.start()
            var values = await receiver.broadcaster.subscribe().makeAsyncIterator()
            _ = await values.next()
            var latencies: [Double] = []
            let clock = ContinuousClock()
            for value in 1...patches {
                let start = clock.now
                try await sender.send(value)
                while let seen = await values.next(), seen != value {}
                latencies.append((clock.now - start).seconds * 1e6)
            }
            table.add(name, fmt(percentile(latencies, 50), 0), fmt(percentile(latencies, 99), 0))
            sender.stop()
            receiver.stop()
            await (bus as? RedisBus)?.shutdown()
        }
        return table
    }

    // MARK: - The server

    struct Server {
        let process: Process
        let port: Int
    }

    static func startServer() throws -> Server {
        let path = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let port = freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return Server(process: process, port: port)
    }

    static func waitUntilUp(_ client: RedisClient) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if (try? await client.command(["PING"])) != nil { return }
            guard ContinuousClock.now < deadline else { throw CocoaError(.fileReadUnknown) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
