import NapkinStorage
import Testing
import NapkinRedis

/// What a readiness probe reads: whether Redis answered the client lately,
/// with no round trip of its own.
@Suite("Redis reachability", .timeLimit(.minutes(1)))
struct RedisReachabilityTests {
    @Test("reachable after an answer, unreachable after a refusal, reachable again once the server is back")
    func followsTheServer() async throws {
        try await withRedisClient(configured: RedisUnreachableTests.patient) { server, client async throws in
            let records = RedisSessionRecords(client: client)
            // Nothing was tried yet: not known to be reachable.
            #expect(!client.isReachable)
            _ = try await client.command(["PING"])
            #expect(client.isReachable)
            #expect(records.isReachable)
            // An error reply is still an answer.
            _ = try? await client.command(["NOSUCHCOMMAND"])
            #expect(client.isReachable)

            await server.stop()
            await #expect(throws: RedisError.self) { try await client.command(["PING"]) }
            #expect(!client.isReachable)
            #expect(!records.isReachable)

            try await server.restart()
            _ = try await client.command(["PING"])
            #expect(client.isReachable)
        }
    }

    @Test("a server that was never there is never reachable")
    func neverThere() async throws {
        let port = try await deadPort()
        let client = RedisClient(configuration: RedisConfiguration(port: port))
        await #expect(throws: RedisError.self) { try await client.command(["PING"]) }
        #expect(!client.isReachable)
        #expect(!RedisSessionRecords(client: client).isReachable)
        await client.shutdown()
    }
}
