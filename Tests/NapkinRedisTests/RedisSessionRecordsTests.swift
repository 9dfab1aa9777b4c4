import NapkinWeb
import Testing
import NapkinRedis

@Suite("Redis session records", .timeLimit(.minutes(1)))
struct RedisSessionRecordsTests {
    @Test("a saved record loads back whole, from another client too (another process)")
    func roundTrip() async throws {
        try await withRedis { server async throws in
            let first = RedisClient(configuration: server.configuration)
            let second = RedisClient(configuration: server.configuration)
            let record = SessionRecord(
                id: "abc123", csrfToken: "token-1",
                values: ["user": #"{"name":"Zoë","admin":true}"#, "cart": "[1,2,3]"])
            try await RedisSessionRecords(client: first).save(record, ttl: .seconds(60))
            #expect(try await RedisSessionRecords(client: second).load(id: "abc123") == record)
            #expect(try await RedisSessionRecords(client: second).load(id: "nobody") == nil)
            #expect(RedisSessionRecords.key(for: "abc123") == "napkin:session:abc123")
            #expect(try await first.command(["EXISTS", "napkin:session:abc123"]) == .integer(1))

            var changed = record
            changed.values["user"] = nil
            try await RedisSessionRecords(client: second).save(changed, ttl: .seconds(60))
            #expect(try await RedisSessionRecords(client: first).load(id: "abc123") == changed)
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test("a record expires after its time to live")
    func expiry() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client)
            try await records.save(SessionRecord(id: "brief", csrfToken: "t"), ttl: .milliseconds(50))
            let ttl = try await client.command(["PTTL", "napkin:session:brief"]).integer ?? -1
            #expect((0...50).contains(ttl) || ttl == -2)
            try await eventually("the record expired") { try await records.load(id: "brief") == nil }
        }
    }

    @Test("touch extends the time to live; touching a missing record does nothing")
    func touch() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client)
            try await records.save(SessionRecord(id: "s", csrfToken: "t"), ttl: .seconds(2))
            try await records.touch(id: "s", ttl: .seconds(600))
            let ttl = try await client.command(["PTTL", "napkin:session:s"]).integer ?? 0
            #expect(ttl > 500_000 && ttl <= 600_000)
            try await records.touch(id: "missing", ttl: .seconds(600))
            #expect(try await records.load(id: "missing") == nil)
            #expect(try await client.command(["EXISTS", "napkin:session:missing"]) == .integer(0))
        }
    }

    @Test("delete removes the record")
    func delete() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client)
            try await records.save(SessionRecord(id: "gone", csrfToken: "t"), ttl: .seconds(60))
            try await records.delete(id: "gone")
            #expect(try await records.load(id: "gone") == nil)
            try await records.delete(id: "gone")
        }
    }

    @Test("an unreadable value throws RedisError.corruptValue naming the key, never reads as no record")
    func corrupt() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client)
            _ = try await client.command(["SET", "napkin:session:bad", "{not json"])
            await #expect(throws: RedisError.corruptValue("napkin:session:bad")) { try await records.load(id: "bad") }
            // Another session's record stored under this id is not this session's.
            try await records.save(SessionRecord(id: "other", csrfToken: "t"), ttl: .seconds(60))
            let stolen = try await client.command(["GET", "napkin:session:other"])
            _ = try await client.command(["SET".bytes, "napkin:session:mine".bytes, stolen.bytes ?? []])
            await #expect(throws: RedisError.corruptValue("napkin:session:mine")) { try await records.load(id: "mine") }
            // A key of the wrong type is Redis's error.
            _ = try await client.command(["RPUSH", "napkin:session:list", "x"])
            await #expect(throws: RedisError.self) { try await records.load(id: "list") }
            // Saving over a corrupt value repairs it.
            try await records.save(SessionRecord(id: "bad", csrfToken: "t"), ttl: .seconds(60))
            #expect(try await records.load(id: "bad")?.csrfToken == "t")
        }
    }
}
