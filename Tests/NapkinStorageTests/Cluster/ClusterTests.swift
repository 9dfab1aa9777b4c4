@_spi(Napkin) import NapkinSupport
import Testing
import napkin
@testable import NapkinStorage

/// Several "processes" in one: bindings that speak for different instances
/// share one bus and one lease store.
@Suite("Shared broadcasters and leased work", .timeLimit(.minutes(1)))
struct ClusterTests {
    @Test("an event sent in one process reaches the subscribers of every process")
    func eventsCrossProcesses() async throws {
        let bus = LocalBus()
        let here = SharedEvents<String>(channel: "news", bus: bus, broadcaster: EventBroadcaster(), origin: "a")
        let there = SharedEvents<String>(channel: "news", bus: bus, broadcaster: EventBroadcaster(), origin: "b")
        await here.start()
        await there.start()
        var local = await here.broadcaster.subscribe().makeAsyncIterator()
        var remote = await there.broadcaster.subscribe().makeAsyncIterator()
        try await here.send("last call")
        try await there.send("closing")
        // Each process has both; between processes the order may differ.
        let seenHere = [await local.next(), await local.next()].compactMap { $0 }
        let seenThere = [await remote.next(), await remote.next()].compactMap { $0 }
        #expect(Set(seenHere) == ["last call", "closing"] && seenHere.count == 2)
        #expect(Set(seenThere) == ["last call", "closing"] && seenThere.count == 2)
        here.stop()
        there.stop()
    }

    @Test("a state sent in one process becomes every process's state, and a process that starts later begins from it")
    func stateCrossesProcessesAndReplays() async throws {
        let bus = LocalBus()
        let first = SharedState(channel: "pit", bus: bus, initial: 0, origin: "a")
        await first.start()
        try await first.send(225)
        let late = SharedState(channel: "pit", bus: bus, initial: 0, origin: "b")
        await late.start()
        #expect(await late.broadcaster.value == 225)
        var follower = await late.broadcaster.subscribe().makeAsyncIterator()
        #expect(await follower.next() == 225)
        try await first.send(240)
        #expect(await follower.next() == 240)
        #expect(await first.broadcaster.value == 240)
        first.stop()
        late.stop()
    }

    @Test("leased work runs in one process at a time and moves when its holder stops")
    func leasedWorkMoves() async throws {
        let leases = LocalLeases()
        let running = Locked<[String]>([])
        let (started, signal) = AsyncStream<String>.makeStream()
        func work(_ name: String) -> @Sendable () async -> Void {
            {
                running.withLock { $0.append(name) }
                signal.yield(name)
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
                running.withLock { $0.removeAll { $0 == name } }
            }
        }
        // A lease long enough that a loaded machine (a sanitizer run) renews
        // it in time; the second process tries again every 3 s.
        let one = LeasedWork(name: "pit", leases: leases, ttl: .seconds(9))
        let two = LeasedWork(name: "pit", leases: leases, ttl: .seconds(9))
        one.start(work("one"))
        var starts = started.makeAsyncIterator()
        #expect(await starts.next() == "one")
        two.start(work("two"))
        #expect(one.isHolding && !two.isHolding)
        await one.stop()
        #expect(await starts.next() == "two")
        #expect(running.withLock { $0 } == ["two"])
        await two.stop()
        #expect(running.withLock { $0 }.isEmpty)
    }
}
