import Testing
@testable import NapkinHTTP

/// A channel that counts bytes: its own limit, a budget shared with other
/// channels, and every byte given back however a value leaves.
@Suite("Channel byte budgets", .timeLimit(.minutes(1)))
struct ChannelByteBudgetTests {
    private static func stream(limit: Int = .max, budget: ByteBudget? = nil) -> Channel<[UInt8]> {
        Channel<[UInt8]>(policy: .finishWhenFull(capacity: 256), byteLimit: limit, budget: budget, weigh: { $0.count })
    }

    @Test("a few values of many bytes end the stream at its byte limit, though its count limit is far off")
    func ownLimit() async throws {
        let channel = Self.stream(limit: 1_000)
        #expect(channel.offer(Array(repeating: 1, count: 600)))
        #expect(channel.bufferedBytes == 600)
        #expect(!channel.offer(Array(repeating: 2, count: 600)))
        // A reader that far behind would read stale patches: they are
        // dropped at once, and the reader gets the end.
        #expect(channel.isTerminated)
        #expect(channel.bufferedBytes == 0)
        #expect(try await channel.next() == nil)
    }

    @Test("the shared budget ends the stream whose value does not fit, and the others go on")
    func sharedBudget() {
        let budget = ByteBudget(limit: 1_000)
        let first = Self.stream(budget: budget)
        let second = Self.stream(budget: budget)
        #expect(first.offer(Array(repeating: 1, count: 700)))
        #expect(!second.offer(Array(repeating: 2, count: 400)))
        #expect(budget.used == 700)
        #expect(first.offer(Array(repeating: 3, count: 300)))
        #expect(budget.used == 1_000)
        first.cancel()
        #expect(budget.used == 0)
    }

    @Test("bytes come back when a value is read, replaced by a newer one of its key, or dropped at cancel")
    func bytesComeBack() async throws {
        let budget = ByteBudget(limit: 10_000)
        let channel = Self.stream(limit: 5_000, budget: budget)
        channel.offer(Array(repeating: 1, count: 100), key: "a")
        channel.offer(Array(repeating: 2, count: 300), key: "a")
        #expect(channel.bufferedBytes == 300)
        channel.offer(Array(repeating: 3, count: 50))
        #expect(budget.used == 350)
        #expect(try await channel.next()?.count == 300)
        #expect(channel.bufferedBytes == 50)
        #expect(budget.used == 50)
        channel.finish()
        #expect(try await channel.next()?.count == 50)
        #expect(try await channel.next() == nil)
        #expect(budget.used == 0)
        let abandoned = Self.stream(budget: budget)
        abandoned.offer(Array(repeating: 4, count: 999))
        abandoned.cancel()
        #expect(budget.used == 0)
    }
}
