import Testing
import napkin

/// An interactor that follows a broadcaster with `observe`.
private final actor Follower: Interactable {
    let source: StateBroadcaster<Int>
    let seen = EventLog()

    init(source: StateBroadcaster<Int>) {
        self.source = source
    }

    func didBecomeActive() async {
        observe(await source.subscribe()) { [seen] value in
            await Task.yield()
            seen.append("\(value)")
        }
    }
}

@Suite("Observe", .timeLimit(.minutes(1)))
struct ObserveTests {
    @Test("observe hands over the current value, then every change, and awaited delivery waits for the handler")
    func followsInOrder() async {
        let source = StateBroadcaster(1)
        let follower = Follower(source: source)
        await follower.activate()
        await source.deliver(2)
        await source.deliver(3)
        #expect(follower.seen.all == ["1", "2", "3"])
        #expect(await source.subscriberCount == 1)
        #expect(follower.lifecycle.boundTaskCount == 0)
    }

    @Test("deactivation cancels the observation; later values are not handled")
    func deactivationCancels() async {
        // Deliveries wait as long as a slow run needs: one given up on
        // would return before the follower saw its value.
        let source = StateBroadcaster(1, deliveryTimeout: .seconds(60))
        let follower = Follower(source: source)
        await follower.activate()
        await source.deliver(2)
        await follower.deactivate()
        #expect(await source.subscriberCount == 0)
        // Awaited: a live observation would have handled 3 before this returns.
        await source.deliver(3)
        #expect(follower.seen.all == ["1", "2"])
    }

    @Test("observe on an inactive interactor cancels the subscription and never calls the handler")
    func inactiveRefuses() async {
        let source = StateBroadcaster(7)
        let follower = Follower(source: source)
        let called = Counter()
        // Settled: a handler running for the replayed 7 or the 8 would be
        // waited for before the settlement reports.
        let (_, report) = await Settlement.run(timeout: .seconds(10)) {
            follower.observe(await source.subscribe()) { _ in called.increment() }
            await source.send(8)
        }
        #expect(report.settled)
        #expect(await source.subscriberCount == 0)
        #expect(called.value == 0)
    }

    @Test("a settlement waits for observers to handle what the event sent")
    func settles() async {
        let source = StateBroadcaster(0)
        let follower = Follower(source: source)
        await follower.activate()
        await source.deliver(0)
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await source.send(5)
        }
        #expect(report.settled)
        #expect(follower.seen.all.last == "5")
    }

    @Test("a napkin activated inside a settlement is settled once its observer handled the replay")
    func settlesActivation() async {
        let source = StateBroadcaster(42)
        let follower = Follower(source: source)
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await follower.activate()
        }
        #expect(report.settled)
        #expect(follower.seen.all == ["42"])
    }
}
