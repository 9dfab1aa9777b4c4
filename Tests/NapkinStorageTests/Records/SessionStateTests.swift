import Testing
import napkin
@testable import NapkinStorage

@Suite("Session state", .timeLimit(.minutes(1)))
struct SessionStateTests {
    static let note = SessionKey<String>("note")

    @Test("starts from the record, writes through before telling subscribers, and a new state over the same values starts where it was")
    func writesThroughThenTells() async throws {
        let values = SessionValues()
        try await values.set(Self.note, to: "two racks")
        let state = SessionState(Self.note, in: values)
        var iterator = await state.subscribe().makeAsyncIterator()
        #expect(await iterator.next() == "two racks")
        try await state.set("three racks")
        #expect(values.value(for: Self.note) == "three racks")
        #expect(await iterator.next() == "three racks")
        try await state.set(nil)
        #expect(await iterator.next() == .some(nil))
        #expect(state.value == nil && values.value(for: Self.note) == nil)
        try await state.set("brisket")
        // Another scope over the same record (a restart, another process).
        #expect(SessionState(Self.note, in: values).value == "brisket")
    }

    @Test("a value the record cannot hold is refused and changes nothing; the next change reaches the subscriber")
    func refusedTellsNobody() async throws {
        let values = SessionValues()
        let state = SessionState(Self.note, in: values)
        try await state.set("two racks")
        let subscription = await state.subscribe()
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == "two racks")
        await #expect(throws: SessionValues.TooLarge.self) {
            try await state.set(String(repeating: "x", count: SessionRecord.maxValueBytes))
        }
        #expect(state.value == "two racks")
        try await state.set("ribs")
        #expect(await iterator.next() == "ribs")
        #expect(state.value == "ribs")
    }
}
