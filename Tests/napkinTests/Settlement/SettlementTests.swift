import Testing
@_spi(Napkin) import NapkinSupport
import napkin

/// A service whose state fans out, the way app services do.
private actor Switch {
    let state = StateBroadcaster(false)
    func flip() async { await state.send(!(await state.value)) }
}

@Suite("Settlement", .timeLimit(.minutes(1)))
@MainActor
struct SettlementTests {
    @Test("an event that settles as its body returns never takes the caller off its actor")
    func settlingAtOnceStaysOnTheActor() async {
        let executor = CountingExecutor()
        await withTaskExecutorPreference(executor) {
            let before = executor.count
            let (value, report) = await Settlement.run(timeout: .seconds(30)) { 42 }
            #expect(value == 42)
            #expect(report.settled)
            #expect(executor.count == before)
        }
    }

    @Test("run waits until subscribers processed what the body sent")
    func waitsForDeliveries() async {
        let service = Switch()
        let seen = EventLog()
        let subscription = await service.state.subscribe()
        let consumer = Task.detached {
            for await value in subscription {
                await Task.yield()
                seen.append("\(value)")
            }
        }
        _ = await Settlement.run(timeout: .seconds(30)) {}
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await service.flip()
        }
        #expect(report.settled)
        #expect(seen.all.last == "true")
        consumer.cancel()
    }

    @Test("run also waits for napkins attached as a consequence, until their bound tasks wait for input")
    func waitsForAttachedNapkins() async {
        let tree = TestTree()
        let root = tree.make("root")
        let gateSubscription = await tree.ticks.subscribe()
        // A listener-like loop: each tick attaches a new child napkin.
        let loop = Task { @MainActor in
            for await tick in gateSubscription where tick > 0 {
                await root.attachChild(tree.make("child\(tick)"))
            }
        }
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await tree.ticks.send(5)
        }
        #expect(report.settled)
        let child = try! #require(root.children.first as? TestRouter)
        #expect(child.interactor.isActive)
        // The child's bound task subscribed and presented the replayed value.
        #expect(child.interactor.presenter.lastTick == 5)
        loop.cancel()
    }

    @Test("a stuck consequence cannot hold run past its timeout")
    func timesOut() async {
        let service = Switch()
        let subscription = await service.state.subscribe()
        let taken = AsyncStream.makeStream(of: Bool.self)
        let stalled = Task {
            var iterator = subscription.makeAsyncIterator()
            taken.continuation.yield(await iterator.next() ?? false)
            try? await Task.sleep(for: .seconds(3600))
        }
        for await _ in taken.stream { break }
        let (_, report) = await Settlement.run(timeout: .milliseconds(50)) {
            await service.flip()
        }
        #expect(!report.settled)
        #expect(report.outstanding == 1)
        stalled.cancel()
    }
}
