import Testing
@_spi(Napkin) import NapkinSupport
@testable import NapkinWeb

@Suite("Main queue executor", .timeLimit(.minutes(1)))
@MainActor
struct MainQueueExecutorTests {
    @Test("a wait on the main actor comes back without passing through the task's executor")
    func waitComesStraightBack() async {
        let executor = CountingExecutor()
        await withTaskExecutorPreference(executor) {
            // What a plain continuation does: back through the task's executor.
            var before = executor.count
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Task { @MainActor in continuation.resume() }
            }
            #expect(executor.count > before)
            #expect(MainQueue.isCurrent)

            before = executor.count
            await MainQueueExecutor.wait { continuation in
                Task { @MainActor in continuation.resume() }
            }
            #expect(executor.count == before)
            #expect(MainQueue.isCurrent)
        }
    }
}
