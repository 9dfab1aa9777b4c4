import Testing
@testable import NapkinRedis

@Suite(.timeLimit(.minutes(1))) struct RedisClientStatisticsTests {
    @Test("commands, failed commands and reconnects after Redis comes back are counted")
    func statistics() async throws {
        try await withRedis { server in
            let client = RedisClient(configuration: RedisConfiguration(host: "127.0.0.1", port: server.port, connections: 1))
            #expect(client.statistics == RedisStatistics(commands: 0, errors: 0, reconnects: 0))
            _ = try await client.command(["SET", "k", "v"])
            await #expect(throws: RedisError.self) { try await client.command(["NO-SUCH-COMMAND"]) }
            #expect(client.statistics == RedisStatistics(commands: 2, errors: 1, reconnects: 0))
            await server.stop()
            await #expect(throws: RedisError.self) { try await client.command(["GET", "k"]) }
            try await server.restart()
            // The connection broken by the stop is made anew (the first
            // command after may still meet the broken one).
            _ = try? await client.command(["PING"])
            #expect(try await client.command(["PING"]) == .status("PONG"))
            let after = client.statistics
            #expect(after.reconnects == 1)
            #expect(after.errors >= 2)
            await client.shutdown()
        }
    }
}
