import Testing
@testable import napkin

/// The registry behind both broadcasters: removal by id, scanning while it
/// is small and through its table of positions once it has been large.
@Suite("FanOut", .timeLimit(.minutes(1)))
struct FanOutTests {
    @Test("removals in any order keep exactly the others, below and past the size that builds the table")
    func removalsKeepTheOthers() {
        var fanOut = FanOut<Int>(policy: .latest)
        var expected: Set<UInt64> = []
        func add(_ count: Int) {
            for _ in 0..<count { _ = fanOut.add { _ in } }
            expected = Set(fanOut.ids)
        }
        func remove(_ id: UInt64) {
            fanOut.remove(id)
            expected.remove(id)
            #expect(Set(fanOut.ids) == expected)
            #expect(fanOut.ids.count == expected.count)
        }

        add(5)
        for id: UInt64 in [2, 0, 4, 4, 99] { remove(id) }
        add(FanOut<Int>.indexedFrom + 3)
        for id in fanOut.ids where id % 3 == 0 { remove(id) }
        for id in fanOut.ids.reversed() { remove(id) }
        #expect(fanOut.ids.isEmpty)
        add(3)
        remove(fanOut.ids[1])
        #expect(fanOut.ids.count == 2)
    }
}
