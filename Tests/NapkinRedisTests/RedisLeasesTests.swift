import NapkinStorage
import Testing
import NapkinRedis

@Suite("Redis leases", .timeLimit(.minutes(1)))
struct RedisLeasesTests {
    @Test("one holder at a time across two clients; only the holder renews or releases")
    func oneHolder() async throws {
        try await withRedis { server async throws in
            let first = RedisClient(configuration: server.configuration)
            let second = RedisClient(configuration: server.configuration)
            let a = RedisLeases(client: first)
            let b = RedisLeases(client: second)

            #expect(try await a.acquire("pit", holder: "process-a", ttl: .seconds(30)))
            #expect(try await !b.acquire("pit", holder: "process-b", ttl: .seconds(30)))
            #expect(try await !a.acquire("pit", holder: "process-a", ttl: .seconds(30)))
            #expect(try await first.command(["GET", RedisLeases.key(for: "pit")]).string == "process-a")

            #expect(try await !b.renew("pit", holder: "process-b", ttl: .seconds(30)))
            #expect(try await a.renew("pit", holder: "process-a", ttl: .seconds(60)))
            let ttl = try await first.command(["PTTL", "napkin:lease:pit"]).integer ?? 0
            #expect(ttl > 30_000)

            try await b.release("pit", holder: "process-b")
            #expect(try await first.command(["GET", "napkin:lease:pit"]).string == "process-a")
            #expect(try await !b.acquire("pit", holder: "process-b", ttl: .seconds(30)))

            try await a.release("pit", holder: "process-a")
            #expect(try await b.acquire("pit", holder: "process-b", ttl: .seconds(30)))
            #expect(try await !a.renew("pit", holder: "process-a", ttl: .seconds(30)))

            // Different leases are independent.
            #expect(try await a.acquire("scheduler", holder: "process-a", ttl: .seconds(30)))
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test("an expired lease is taken over, and its old holder can no longer renew it")
    func takeover() async throws {
        try await withRedis { server async throws in
            let first = RedisClient(configuration: server.configuration)
            let second = RedisClient(configuration: server.configuration)
            let a = RedisLeases(client: first)
            let b = RedisLeases(client: second)
            #expect(try await a.acquire("pit", holder: "process-a", ttl: .milliseconds(100)))
            try await eventually("the other process takes the lease") {
                try await b.acquire("pit", holder: "process-b", ttl: .seconds(30))
            }
            #expect(try await !a.renew("pit", holder: "process-a", ttl: .seconds(30)))
            try await a.release("pit", holder: "process-a")
            #expect(try await second.command(["GET", "napkin:lease:pit"]).string == "process-b")
            await first.shutdown()
            await second.shutdown()
        }
    }
}
