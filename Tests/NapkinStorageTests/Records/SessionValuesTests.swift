import Testing
@testable import NapkinStorage

@Suite("Session values", .timeLimit(.minutes(1)))
struct SessionValuesTests {
    @Test("a value that would make the record larger than a store hands back is refused when set, and nothing changes")
    func tooLargeIsRefusedUpFront() async throws {
        let values = SessionValues()
        let note = SessionKey<String>("note")
        try await values.set(note, to: "two racks")
        let huge = String(repeating: "x", count: SessionRecord.maxValueBytes)
        await #expect(throws: SessionValues.TooLarge.self) { try await values.set(note, to: huge) }
        #expect(values.value(for: note) == "two racks")

        for index in 1..<SessionRecord.maxValues {
            try await values.set(SessionKey<Int>("key \(index)"), to: index)
        }
        await #expect(throws: SessionValues.TooLarge.self) { try await values.set(SessionKey<Int>("one too many"), to: 0) }
        #expect(values.current.values.count == SessionRecord.maxValues)
        #expect(values.current.defect == nil)
    }

    @Test("a value the store cannot save throws Unavailable naming its key and the store's error, and nothing changes")
    func storeOutageIsUnavailable() async throws {
        let store = RefusingRecords()
        let record = SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make(), values: ["note": "\"two racks\""])
        let values = SessionValues(record: record, store: store, ttl: .seconds(60))
        let note = SessionKey<String>("note")
        let error = await #expect(throws: SessionValues.Unavailable.self) { try await values.set(note, to: "three racks") }
        #expect(error?.key == "note")
        #expect(error?.cause is RefusingRecords.Refused)
        #expect(values.value(for: note) == "two racks")
        #expect(values.current == record)
    }
}

/// A session store whose server is away: every call throws.
private struct RefusingRecords: SessionRecordStore {
    struct Refused: Error {}

    func load(id: String) async throws -> SessionRecord? { throw Refused() }
    func save(_ record: SessionRecord, ttl: Duration) async throws { throw Refused() }
    func touch(id: String, ttl: Duration) async throws { throw Refused() }
    func delete(id: String) async throws { throw Refused() }
}
