import Testing
@testable import NapkinWeb

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
}
