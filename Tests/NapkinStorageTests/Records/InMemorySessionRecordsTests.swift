import Testing
@testable import NapkinStorage

@Suite("In-memory session records", .timeLimit(.minutes(1)))
struct InMemorySessionRecordsTests {
    static func record(_ n: Int) -> SessionRecord {
        SessionRecord(id: String(repeating: "0", count: 31) + String(n % 10), csrfToken: "t\(n)", values: ["n": "\(n)"])
    }

    @Test("records round trip; an expired one is gone when looked up, and all of them at the sweep")
    func expiry() async throws {
        let records = InMemorySessionRecords()
        try await records.save(Self.record(1), ttl: .seconds(3600))
        #expect(try await records.load(id: Self.record(1).id) == Self.record(1))
        for n in 2...9 { try await records.save(Self.record(n), ttl: .zero) }
        #expect(records.count == 9)
        #expect(try await records.load(id: Self.record(2).id) == nil)
        await records.removeExpired()
        #expect(records.count == 1)
        #expect(try await records.load(id: Self.record(1).id) != nil)
    }

    @Test("past its capacity the store drops the least recently written record")
    func capacity() async throws {
        let records = InMemorySessionRecords(capacity: 2)
        for n in 1...3 { try await records.save(Self.record(n), ttl: .seconds(3600)) }
        #expect(records.count == 2)
        #expect(try await records.load(id: Self.record(1).id) == nil)
        try await records.touch(id: Self.record(2).id, ttl: .seconds(3600))
        try await records.save(Self.record(4), ttl: .seconds(3600))
        #expect(try await records.load(id: Self.record(2).id) != nil, "a touched record counts as written")
        #expect(try await records.load(id: Self.record(3).id) == nil)
        try await records.delete(id: Self.record(2).id)
        #expect(try await records.load(id: Self.record(2).id) == nil)
    }

    @Test("a flood of empty records never pushes out one that holds values while an empty one is left")
    func valuedRecordsOutliveFloods() async throws {
        let records = InMemorySessionRecords(capacity: 100)
        let signedIn = SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make(), values: ["user": "\"Ada\""])
        try await records.save(signedIn, ttl: .seconds(3600))
        for _ in 1...1_000 {
            try await records.save(SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make()), ttl: .seconds(3600))
        }
        #expect(records.count == 100)
        #expect(try await records.load(id: signedIn.id) == signedIn)
        // Records that all hold values go least recently written first.
        for n in 1...100 {
            let valued = SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make(), values: ["user": "\"Guest \(n)\""])
            try await records.save(valued, ttl: .seconds(3600))
        }
        #expect(records.count == 100)
        #expect(try await records.load(id: signedIn.id) == nil)
    }

    @Test("ids and tokens come back exactly as saved, napkin's own (held as bits) and any other (held as text)",
          arguments: [
              (SecureToken.make(), SecureToken.make()),
              ("0123456789abcdef0123456789abcdef", "ffffffffffffffffffffffffffffffff"),
              ("0123456789ABCDEF0123456789ABCDEF", "short"),
              ("s1", ""),
          ])
    func tokensRoundTrip(id: String, token: String) async throws {
        let records = InMemorySessionRecords()
        let record = SessionRecord(id: id, csrfToken: token)
        try await records.save(record, ttl: .seconds(60))
        #expect(try await records.load(id: id) == record)
        #expect(try await records.load(id: id.uppercased() == id ? id.lowercased() : id.uppercased()) == nil)
        #expect(PackedToken(id).string == id)
    }
}
