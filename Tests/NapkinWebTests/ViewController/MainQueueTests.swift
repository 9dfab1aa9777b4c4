import Testing
@testable import NapkinWeb

@Suite("Main queue", .timeLimit(.minutes(1)))
struct MainQueueTests {
    @Test("main-actor code is recognised as such, whichever thread drains the main queue")
    @MainActor
    func onMainActor() {
        #expect(MainQueue.isCurrent)
    }

    @Test("code off the main actor is not")
    func offMainActor() async {
        let onMain = await Task.detached { MainQueue.isCurrent }.value
        #expect(!onMain)
    }
}
