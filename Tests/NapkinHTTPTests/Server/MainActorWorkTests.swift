import Dispatch
import Testing
@_spi(Napkin) import NapkinSupport
@testable import NapkinHTTP

/// Main-actor work in a task that prefers an executor of its own (as a
/// handler prefers its loop).
@Suite(.timeLimit(.minutes(1))) struct MainActorWorkTests {
    /// Three awaits of main-actor functions, with a block queued on the main
    /// queue first: whether the block ran before the last of them returned.
    @MainActor
    private static func mainQueueRanBetweenAwaits() async -> Bool {
        let ran = Locked(false)
        DispatchQueue.main.async { ran.withLock { $0 = true } }
        for _ in 0..<3 { await Self.step() }
        return ran.withLock { $0 }
    }

    @MainActor
    private static func step() async {}

    /// The control case: with the preference still in force, each await goes
    /// round the main queue, and the queued block runs in between.
    @Test func withThePreferenceEachAwaitGoesRoundTheMainQueue() async {
        let interleaved = await withTaskExecutorPreference(CountingExecutor()) {
            await Self.mainQueueRanBetweenAwaits()
        }
        #expect(interleaved)
    }

    @Test func mainActorWorkAwaitsWithoutLeavingTheMainActor() async throws {
        let interleaved = try await withTaskExecutorPreference(CountingExecutor()) {
            try await MainActorWork.run { await Self.mainQueueRanBetweenAwaits() }
        }
        #expect(!interleaved)
    }

    /// A handler that hands its main-actor work over still answers from the
    /// loop that read its request.
    @Test func aHandlerComesBackToItsLoop() async throws {
        try await expectHandlersComeBackToTheirLoop {
            // A wrong value fails the request (a 500), and so the expectation.
            struct WrongValue: Error {}
            guard try await MainActorWork.run({ await Self.step(); return 42 }) == 42 else { throw WrongValue() }
        }
    }

    @Test func errorsAndCancellationCrossOver() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await MainActorWork.run { () throws -> Int in throw Refused() }
        }
        let (started, began) = AsyncStream<Void>.makeStream()
        let caller = Task {
            try await MainActorWork.run {
                began.yield()
                try await Task.sleep(for: .seconds(60))
            }
        }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
    }
}
