import Testing
import napkin

@Suite("State broadcaster", .timeLimit(.minutes(1)))
struct StateBroadcasterTests {
    @Test("a new subscriber gets the current value first, then every change")
    func replaysCurrentValue() async {
        let broadcaster = StateBroadcaster("a")
        await broadcaster.send("b")
        var iterator = await broadcaster.subscribe().makeAsyncIterator()
        #expect(await iterator.next() == "b")
        await broadcaster.send("c")
        #expect(await iterator.next() == "c")
    }

    @Test("update changes the value in place as one step: 200 racing appends keep every one, and a throwing change keeps none")
    func updateIsOneStep() async throws {
        struct Refused: Error {}
        let broadcaster = StateBroadcaster<[Int]>([])
        var iterator = await broadcaster.subscribe().makeAsyncIterator()
        #expect(await iterator.next() == [])
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<200 { group.addTask { await broadcaster.update { $0.append(number) } } }
        }
        #expect(await broadcaster.value.sorted() == Array(0..<200))
        // The subscriber is offered the latest list.
        #expect(await iterator.next()?.count == 200)
        await #expect(throws: Refused.self) { try await broadcaster.update { _ in throw Refused() } }
        #expect(await broadcaster.value.count == 200)
        #expect(await broadcaster.update { $0 = [7] } == [7])
    }

    @Test("one send fans out to every subscriber, each with its own sequence")
    func fanOut() async {
        let broadcaster = StateBroadcaster(0)
        var iterators = [Subscription<Int>.Iterator]()
        for _ in 0..<100 { iterators.append(await broadcaster.subscribe().makeAsyncIterator()) }
        for index in iterators.indices {
            #expect(await iterators[index].next() == 0)
        }
        await broadcaster.send(42)
        for index in iterators.indices {
            #expect(await iterators[index].next() == 42)
        }
        #expect(await broadcaster.subscriberCount == 100)
    }

    @Test("a stalled subscriber holds only the latest value")
    func stalledKeepsLatest() async {
        let broadcaster = StateBroadcaster(0)
        var iterator = await broadcaster.subscribe().makeAsyncIterator()
        for value in 1...10_000 { await broadcaster.send(value) }
        #expect(await iterator.next() == 10_000)
    }

    @Test("a cancelled subscriber is removed and its loop ends")
    func cancellationRemoves() async {
        let broadcaster = StateBroadcaster(0)
        let subscription = await broadcaster.subscribe()
        let started = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            for await value in subscription { started.continuation.yield(value) }
            return "ended"
        }
        for await _ in started.stream { break }
        #expect(await broadcaster.subscriberCount == 1)
        consumer.cancel()
        #expect(await consumer.value == "ended")
        #expect(await broadcaster.subscriberCount == 0)
    }

    @Test("subscribers leaving in any order leave the others intact")
    func removalKeepsOthers() async {
        let broadcaster = StateBroadcaster(0)
        var subscriptions: [Subscription<Int>] = []
        for _ in 0..<50 { subscriptions.append(await broadcaster.subscribe()) }
        for index in stride(from: 0, to: 50, by: 2) { subscriptions[index].cancel() }
        for index in [1, 49, 25] { subscriptions[index].cancel() }
        #expect(await broadcaster.subscriberCount == 22)
        await broadcaster.send(9)
        var iterators = subscriptions.map { $0.makeAsyncIterator() }
        for index in iterators.indices where index % 2 == 1 && ![1, 49, 25].contains(index) {
            #expect(await iterators[index].next() == 9)
        }
        #expect(await iterators[1].next() == nil)
    }

    @Test("releasing a subscription without iterating it removes it")
    func releaseRemoves() async {
        let broadcaster = StateBroadcaster(0)
        do { _ = await broadcaster.subscribe() }
        #expect(await broadcaster.subscriberCount == 0)
    }

    @Test("deliver returns after every subscriber processed the value")
    func awaitedDelivery() async {
        let broadcaster = StateBroadcaster(0)
        let seen = EventLog()
        var consumers: [Task<Void, Never>] = []
        for index in 0..<20 {
            let subscription = await broadcaster.subscribe()
            consumers.append(Task {
                for await value in subscription {
                    await Task.yield()
                    seen.append("\(index):\(value)")
                }
            })
        }
        let report = await broadcaster.deliver(7)
        #expect(report == DeliveryReport(subscribers: 20, acknowledged: 20))
        #expect(seen.all.filter { $0.hasSuffix(":7") }.count == 20)
        for consumer in consumers { consumer.cancel() }
    }

    @Test("a stalled subscriber cannot hold deliver past its timeout; the stall is reported")
    func stalledDeliveryTimesOut() async {
        let broadcaster = StateBroadcaster(0)
        let subscription = await broadcaster.subscribe()
        let taken = AsyncStream.makeStream(of: Int.self)
        // Takes one value, then never comes back for the next.
        let stalled = Task {
            var iterator = subscription.makeAsyncIterator()
            taken.continuation.yield(await iterator.next() ?? -1)
            try? await Task.sleep(for: .seconds(3600))
        }
        for await _ in taken.stream { break }
        let log = EventLog()
        let report = await Diagnostics.$handler.withValue({ log.append($0) }) {
            await broadcaster.deliver(1, timeout: .milliseconds(50))
        }
        #expect(report.subscribers == 1)
        #expect(report.stalled == 1)
        #expect(log.all.first?.contains("stalled") == true)
        stalled.cancel()
    }

    @Test("a subscriber that delivers from inside its own loop does not deadlock")
    func deliverFromOwnLoop() async {
        let broadcaster = StateBroadcaster(0)
        let subscription = await broadcaster.subscribe()
        let reports = AsyncStream.makeStream(of: DeliveryReport.self)
        let consumer = Task {
            for await value in subscription where value == 1 {
                reports.continuation.yield(await broadcaster.deliver(2, timeout: .seconds(30)))
            }
        }
        await broadcaster.send(1)
        var iterator = reports.stream.makeAsyncIterator()
        let report = await iterator.next()
        #expect(report == DeliveryReport(subscribers: 0, acknowledged: 0))
        consumer.cancel()
    }
}
