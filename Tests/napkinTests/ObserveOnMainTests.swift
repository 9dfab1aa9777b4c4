import Dispatch
import Testing
@testable import napkin

/// What a main-actor observer shows: the values it was handed, in order.
@MainActor
private final class Shown: Sendable {
    private(set) var values: [Int] = []
    /// The main-actor batch each value was handled in (`nil`: in none).
    private(set) var batches: [Int?] = []
    func show(_ value: Int) {
        MainActor.assertIsolated()
        values.append(value)
        batches.append(MainActorBatch.shared.running)
    }
}

/// An interactor that hands a broadcaster's values straight to the main actor.
private final actor MainFollower: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    let source: StateBroadcaster<Int>
    let shown: Shown

    init(source: StateBroadcaster<Int>, shown: Shown) {
        self.source = source
        self.shown = shown
    }

    func didBecomeActive() async {
        observeOnMain(await source.subscribe()) { [shown] value in shown.show(value) }
    }
}

@Suite("Observe on the main actor", .timeLimit(.minutes(1)))
@MainActor
struct ObserveOnMainTests {
    /// A follower of `source`, activated: it has shown the current value.
    fileprivate func activeFollower(of source: StateBroadcaster<Int>) async -> (MainFollower, Shown) {
        let shown = Shown()
        let follower = MainFollower(source: source, shown: shown)
        await follower.activate()
        return (follower, shown)
    }

    @Test("the current value, then every change, in order, on the main actor; an awaited delivery waits for the handler")
    func followsInOrder() async {
        let source = StateBroadcaster(1)
        let (follower, shown) = await activeFollower(of: source)
        await source.deliver(2)
        await source.deliver(3)
        #expect(shown.values == [1, 2, 3])
        #expect(follower.lifecycle.boundTaskCount == 0)
    }

    @Test("deactivation cancels the observation; later values are not handled")
    func deactivationCancels() async {
        let source = StateBroadcaster(1)
        let (follower, shown) = await activeFollower(of: source)
        await source.deliver(2)
        await follower.deactivate()
        #expect(await source.subscriberCount == 0)
        await source.deliver(3)
        #expect(shown.values == [1, 2])
    }

    @Test("a settlement waits for main-actor observers to handle what the event sent")
    func settles() async {
        let source = StateBroadcaster(0)
        let (follower, shown) = await activeFollower(of: source)
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await source.send(5)
        }
        #expect(report.settled)
        #expect(shown.values.last == 5)
        await follower.deactivate()
    }

    @Test("one value for a thousand observers, sent while the main actor is busy, is handled by all of them in one main-actor job")
    func batches() async {
        let source = StateBroadcaster(0)
        let followers = (0..<1_000).map { _ in MainFollower(source: source, shown: Shown()) }
        for follower in followers { await follower.activate() }
        await source.deliver(0)
        let sent = DispatchSemaphore(value: 0)
        Task.detached {
            await source.send(7)
            sent.signal()
        }
        // The main actor is held until the value has reached every mailbox:
        // every handler then waits for the same batch.
        hold(until: sent)
        // A main-actor job queued after the batch's: when it runs, the batch has.
        await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
            Task { @MainActor in resumed.resume() }
        }
        #expect(followers.allSatisfy { $0.shown.values == [0, 0, 7] })   // the replay, the delivered 0, the 7
        // Other tests' batches may run around it; the 7 went out in one.
        let batches = Set(followers.map { $0.shown.batches.last ?? nil })
        #expect(batches.count == 1 && !batches.contains(nil), "handled in batches \(batches)")
        for follower in followers { await follower.deactivate() }
        #expect(await source.subscriberCount == 0)
    }
}

/// Blocks the calling thread until `semaphore` is signalled.
private func hold(until semaphore: DispatchSemaphore) {
    semaphore.wait()
}
