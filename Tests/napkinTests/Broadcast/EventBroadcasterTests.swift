import Testing
import napkin

@Suite("Event broadcaster", .timeLimit(.minutes(1)))
struct EventBroadcasterTests {
    @Test("subscribers get only the events sent after they subscribed")
    func noReplay() async {
        let broadcaster = EventBroadcaster<String>()
        await broadcaster.send("before")
        var iterator = await broadcaster.subscribe().makeAsyncIterator()
        await broadcaster.send("after")
        #expect(await iterator.next() == "after")
    }

    @Test("every subscriber gets every event, in order")
    func fanOutInOrder() async {
        let broadcaster = EventBroadcaster<Int>()
        var iterators = [Subscription<Int>.Iterator]()
        for _ in 0..<50 { iterators.append(await broadcaster.subscribe().makeAsyncIterator()) }
        for event in 1...3 { await broadcaster.send(event) }
        for index in iterators.indices {
            var received: [Int] = []
            for _ in 1...3 { received.append(await iterators[index].next() ?? -1) }
            #expect(received == [1, 2, 3])
        }
    }

    @Test("a stalled subscriber keeps a bounded buffer: the oldest events are dropped")
    func boundedBuffer() async {
        let broadcaster = EventBroadcaster<Int>(bufferLimit: 8)
        let subscription = await broadcaster.subscribe()
        var iterator = subscription.makeAsyncIterator()
        for event in 1...10_000 { await broadcaster.send(event) }
        #expect(subscription.droppedCount == 10_000 - 8)
        var received: [Int] = []
        for _ in 0..<8 { received.append(await iterator.next() ?? -1) }
        #expect(received == Array(9_993...10_000))
    }

    @Test("a cancelled subscriber is removed")
    func cancellationRemoves() async {
        let broadcaster = EventBroadcaster<Int>()
        let subscription = await broadcaster.subscribe()
        #expect(await broadcaster.subscriberCount == 1)
        subscription.cancel()
        #expect(await broadcaster.subscriberCount == 0)
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test("deliver waits for every subscriber to process the event")
    func awaitedDelivery() async {
        let broadcaster = EventBroadcaster<String>()
        let seen = EventLog()
        let subscription = await broadcaster.subscribe()
        let consumer = Task {
            for await event in subscription { seen.append(event) }
        }
        let report = await broadcaster.deliver("ping")
        #expect(report.isComplete && report.subscribers == 1)
        #expect(seen.all == ["ping"])
        consumer.cancel()
    }
}
