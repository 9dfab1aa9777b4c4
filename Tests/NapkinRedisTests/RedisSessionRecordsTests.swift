import NapkinStorage
import Testing
@_spi(Napkin) import NapkinSupport
import NapkinRedis

@Suite("Redis session records", .timeLimit(.minutes(1)))
struct RedisSessionRecordsTests {
    static let id = "0123456789abcdef0123456789abcdef"
    static let token = "fedcba9876543210fedcba9876543210"
    static let secret = Array("sixteen or more secret bytes".utf8)

    @Test("a saved record loads back whole, from another client too (another process with the same secret)")
    func roundTrip() async throws {
        try await withRedis { server async throws in
            let first = RedisClient(configuration: server.configuration)
            let second = RedisClient(configuration: server.configuration)
            let record = SessionRecord(
                id: Self.id, csrfToken: Self.token,
                values: ["user": #"{"name":"Zoë","admin":true}"#, "cart": "[1,2,3]"])
            try await RedisSessionRecords(client: first, secret: Self.secret).save(record, ttl: .seconds(60))
            #expect(try await RedisSessionRecords(client: second, secret: Self.secret).load(id: Self.id) == record)
            #expect(try await RedisSessionRecords(client: second, secret: Self.secret).load(id: "nobody") == nil)

            var changed = record
            changed.values["user"] = nil
            try await RedisSessionRecords(client: second, secret: Self.secret).save(changed, ttl: .seconds(60))
            #expect(try await RedisSessionRecords(client: first, secret: Self.secret).load(id: Self.id) == changed)
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test("Redis holds no session id: keys are keyed hashes of the ids, values hold no id")
    func noIdsInRedis() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client, secret: Self.secret)
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token), ttl: .seconds(60))
            let keys = try await client.command(["KEYS", "napkin:session:*"])
            #expect(keys == .array([.bulk(records.key(for: Self.id).bytes)]))
            #expect(!records.key(for: Self.id).contains(Self.id))
            #expect(records.key(for: Self.id).count == "napkin:session:".count + 64)
            let value = try await client.command(["GET", records.key(for: Self.id)]).string ?? ""
            #expect(!value.isEmpty && !value.contains(Self.id))
            // Another secret, other keys; the same credentials, the same derived secret.
            #expect(RedisSessionRecords(client: client, secret: [1, 2, 3]).key(for: Self.id) != records.key(for: Self.id))
            let derived = RedisConfiguration(password: "pw").derivedSecret
            #expect(derived == RedisConfiguration(host: "10.0.0.2", password: "pw").derivedSecret)
            #expect(derived != RedisConfiguration(password: "other").derivedSecret)
        }
    }

    @Test("a record expires after its time to live")
    func expiry() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client, secret: Self.secret)
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token), ttl: .milliseconds(50))
            let ttl = try await client.command(["PTTL", records.key(for: Self.id)]).integer ?? -1
            #expect((0...50).contains(ttl) || ttl == -2)
            try await eventually("the record expired") { try await records.load(id: Self.id) == nil }
        }
    }

    @Test("touch extends the time to live; touching a missing record does nothing")
    func touch() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client, secret: Self.secret)
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token), ttl: .seconds(30))
            try await records.touch(id: Self.id, ttl: .seconds(600))
            let ttl = try await client.command(["PTTL", records.key(for: Self.id)]).integer ?? 0
            #expect(ttl > 500_000 && ttl <= 600_000)
            try await records.touch(id: "missing", ttl: .seconds(600))
            #expect(try await records.load(id: "missing") == nil)
            #expect(try await client.command(["EXISTS", records.key(for: "missing")]) == .integer(0))
        }
    }

    @Test("delete removes the record")
    func delete() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client, secret: Self.secret)
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token), ttl: .seconds(60))
            try await records.delete(id: Self.id)
            #expect(try await records.load(id: Self.id) == nil)
            try await records.delete(id: Self.id)
        }
    }

    @Test("a value napkin did not seal for this id, or a record with a bad token or oversized values, reads as no record")
    func refused() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client, secret: Self.secret)
            let key = records.key(for: Self.id)
            // Not napkin's at all.
            _ = try await client.command(["SET", key, "{not json"])
            #expect(try await records.load(id: Self.id) == nil)
            #expect(RefusedInput.wasReported("session record"))
            // A record as the old format stored it, unsealed.
            _ = try await client.command(["SET", key, #"{"id":"\#(Self.id)","csrfToken":"\#(Self.token)","values":{}}"#])
            #expect(try await records.load(id: Self.id) == nil)
            // Another session's record moved under this id's key.
            let other = "11111111111111111111111111111111"
            try await records.save(SessionRecord(id: other, csrfToken: Self.token, values: ["user": "\"Admin\""]), ttl: .seconds(60))
            let moved = try await client.command(["GET", records.key(for: other)])
            _ = try await client.command(["SET".bytes, key.bytes, moved.bytes ?? []])
            #expect(try await records.load(id: Self.id) == nil)
            // Sealed with another secret.
            let forged = RedisSessionRecords(client: client, secret: Array("a guessed secret".utf8))
            try await forged.save(SessionRecord(id: Self.id, csrfToken: Self.token), ttl: .seconds(60))
            _ = try await client.command(["RENAME", forged.key(for: Self.id), key])
            #expect(try await records.load(id: Self.id) == nil)
            // Sealed properly, but with an empty or malformed CSRF token.
            for bad in ["", "t", String(repeating: "A", count: 32)] {
                try await records.save(SessionRecord(id: Self.id, csrfToken: bad), ttl: .seconds(60))
                #expect(try await records.load(id: Self.id) == nil)
            }
            // Too many values, or values too large, sealed properly.
            let many = Dictionary(uniqueKeysWithValues: (0...SessionRecord.maxValues).map { ("v\($0)", "1") })
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token, values: many), ttl: .seconds(60))
            #expect(try await records.load(id: Self.id) == nil)
            let large = String(repeating: "x", count: SessionRecord.maxValueBytes)
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token, values: ["name": large]), ttl: .seconds(60))
            #expect(try await records.load(id: Self.id) == nil)
            // A 5 MB value at the key: read only up to the limit, and refused.
            _ = try await client.command(["SET".bytes, key.bytes, [UInt8](repeating: 0x61, count: 5_000_000)])
            #expect(try await records.load(id: Self.id) == nil)
            // A key of the wrong type is Redis's error.
            _ = try await client.command(["DEL", key])
            _ = try await client.command(["RPUSH", key, "x"])
            await #expect(throws: RedisError.self) { try await records.load(id: Self.id) }
            // Saving over a refused value repairs it.
            _ = try await client.command(["DEL", key])
            try await records.save(SessionRecord(id: Self.id, csrfToken: Self.token), ttl: .seconds(60))
            #expect(try await records.load(id: Self.id)?.csrfToken == Self.token)
        }
    }

    @Test("a record larger than napkin reads back is not saved")
    func tooLargeToSave() async throws {
        try await withRedisClient { _, client async throws in
            let records = RedisSessionRecords(client: client, secret: Self.secret)
            let huge = SessionRecord(id: Self.id, csrfToken: Self.token, values: ["name": String(repeating: "x", count: 5_000_000)])
            await #expect(throws: RedisError.tooLarge(records.key(for: Self.id))) { try await records.save(huge, ttl: .seconds(60)) }
            #expect(try await client.command(["EXISTS", records.key(for: Self.id)]) == .integer(0))
        }
    }
}
