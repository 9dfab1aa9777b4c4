import NapkinStorage
import Testing
import NapkinRedis

@Suite("Redis unreachable", .timeLimit(.minutes(1)))
struct RedisUnreachableTests {
    /// Timeouts far longer than "fast": an answer within ``fast`` came from
    /// the refusal itself, not from waiting one out (however slow the
    /// machine, a sanitizer build among them).
    static func patient(_ configuration: RedisConfiguration) -> RedisConfiguration {
        var configuration = configuration
        configuration.connectTimeout = .seconds(20)
        configuration.commandTimeout = .seconds(30)
        return configuration
    }

    static let fast: Duration = .seconds(5)

    @Test("while Redis is down commands throw RedisError.unreachable fast; once it is back they work, with no restart")
    func downAndBack() async throws {
        try await withRedisClient(configured: Self.patient) { server, client async throws in
            let records = RedisSessionRecords(client: client)
            try await records.save(SessionRecord(id: "s1", csrfToken: "fedcba9876543210fedcba9876543210"), ttl: .seconds(60))
            // Every pooled connection is open when Redis stops.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 { group.addTask { _ = try await client.command(["PING"]) } }
                try await group.waitForAll()
            }

            await server.stop()
            for _ in 0..<8 {
                let started = ContinuousClock.now
                await #expect {
                    try await client.command(["GET", "anything"])
                } throws: { error in
                    guard case .unreachable(let why) = error as? RedisError else { return false }
                    return why == "Redis at 127.0.0.1:\(server.port) is unreachable: connection refused"
                        || why == "Redis at 127.0.0.1:\(server.port) is unreachable: the connection was closed"
                }
                #expect(ContinuousClock.now - started < Self.fast)
            }
            let started = ContinuousClock.now
            await #expect(throws: RedisError.self) { try await records.load(id: "s1") }
            #expect(ContinuousClock.now - started < Self.fast)

            try await server.restart()
            #expect(try await client.command(["PING"]) == .status("PONG"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 { group.addTask { _ = try await client.command(["PING"]) } }
                try await group.waitForAll()
            }
            // A fresh server (no persistence): the record is gone, not an error.
            #expect(try await records.load(id: "s1") == nil)
        }
    }

    @Test("a server that was never there: unreachable, fast, with a short message")
    func neverThere() async throws {
        let port = try await deadPort()
        let client = RedisClient(configuration: Self.patient(RedisConfiguration(port: port)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let started = ContinuousClock.now
                    await #expect(throws: RedisError.unreachable("Redis at 127.0.0.1:\(port) is unreachable: connection refused")) {
                        try await client.command(["PING"])
                    }
                    #expect(ContinuousClock.now - started < Self.fast)
                }
            }
            try await group.waitForAll()
        }
        await client.shutdown()
    }
}
