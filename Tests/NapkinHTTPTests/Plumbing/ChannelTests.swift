import Synchronization
import Testing
@testable import NapkinHTTP

/// Every road through a ``Channel``'s lifecycle ends in one termination,
/// run once, leaving nothing behind.
@Suite("Channel", .timeLimit(.minutes(1)))
struct ChannelTests {
    /// Counts termination handler runs.
    final class Terminations: Sendable {
        let count = Atomic<Int>(0)
        func watch<E>(_ channel: Channel<E>) {
            channel.onTermination { [self] in count.add(1, ordering: .relaxed) }
        }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A buffered value whose release the tests can see.
    final class Payload: Sendable {}

    @Test("finish: the consumer drains what is buffered, then the end; termination runs once")
    func finishDrains() async throws {
        let channel = Channel<Int>(policy: .dropOldest(capacity: 8))
        let terminations = Terminations()
        terminations.watch(channel)
        channel.offer(1)
        channel.offer(2)
        channel.finish()
        #expect(!channel.offer(3))
        #expect(terminations.value == 0)
        #expect(try await channel.next() == 1)
        #expect(try await channel.next() == 2)
        #expect(try await channel.next() == nil)
        #expect(terminations.value == 1)
        channel.cancel()
        channel.finish()
        #expect(terminations.value == 1)
        #expect(channel.isTerminated)
    }

    @Test("finish with an error reaches the consumer after the buffered values")
    func finishWithError() async throws {
        struct Broken: Error {}
        let channel = Channel<Int>(policy: .dropOldest(capacity: 8))
        channel.offer(1)
        channel.finish(throwing: Broken())
        #expect(try await channel.next() == 1)
        await #expect(throws: Broken.self) { try await channel.next() }
        #expect(channel.isTerminated)
    }

    @Test("cancel drops everything buffered at once and wakes a waiting consumer")
    func cancelDrops() async throws {
        let channel = Channel<Payload>(policy: .dropOldest(capacity: 8))
        weak var buffered: Payload?
        do {
            let payload = Payload()
            buffered = payload
            channel.offer(payload)
        }
        #expect(buffered != nil)
        let terminations = Terminations()
        terminations.watch(channel)
        channel.cancel()
        #expect(buffered == nil)
        #expect(terminations.value == 1)
        #expect(try await channel.next() == nil)
    }

    @Test("cancelling the consumer's task cancels the channel")
    func taskCancellation() async throws {
        let channel = Channel<Int>(policy: .dropOldest(capacity: 8))
        let terminated = AsyncStream<Void>.makeStream()
        channel.onTermination { terminated.continuation.finish() }
        let consumer = Task { try await channel.next() }
        consumer.cancel()
        #expect(try await consumer.value == nil)
        for await _ in terminated.stream {}
        #expect(channel.isTerminated)
    }

    @Test("a handler added after termination runs at once")
    func lateHandler() {
        let channel = Channel<Int>(policy: .dropOldest(capacity: 1))
        channel.cancel()
        let terminations = Terminations()
        terminations.watch(channel)
        #expect(terminations.value == 1)
    }

    @Test("backpressure: a sender waits for room, and is released with false when the channel ends")
    func backpressure() async throws {
        let channel = Channel<Int>(policy: .backpressure(capacity: 1))
        #expect(await channel.send(1))
        #expect(!channel.offer(2))
        let blocked = Task { await channel.send(3) }
        #expect(try await channel.next() == 1)
        #expect(await blocked.value)
        #expect(try await channel.next() == 3)
        let stuck = Task {
            _ = await channel.send(4)
            return await channel.send(5)
        }
        channel.cancel()
        #expect(await stuck.value == false)
    }

    @Test("dropOldest keeps the newest values and counts the dropped")
    func dropOldest() async throws {
        let channel = Channel<Int>(policy: .dropOldest(capacity: 2))
        for value in 1...5 { channel.offer(value) }
        #expect(channel.droppedCount == 3)
        #expect(try await channel.next() == 4)
        #expect(try await channel.next() == 5)
    }

    @Test("finishWhenFull ends the channel after what it holds instead of growing")
    func finishWhenFull() async throws {
        let channel = Channel<Int>(policy: .finishWhenFull(capacity: 2))
        #expect(channel.offer(1))
        #expect(channel.offer(2))
        #expect(!channel.offer(3))
        #expect(try await channel.next() == 1)
        #expect(try await channel.next() == 2)
        #expect(try await channel.next() == nil)
    }

    @Test("a keyed offer replaces the unread value with its key and moves to the end")
    func keyed() async throws {
        let channel = Channel<String>(policy: .dropOldest(capacity: 8))
        channel.offer("a1", key: "a")
        channel.offer("b1", key: "b")
        channel.offer("a2", key: "a")
        channel.finish()
        #expect(try await channel.next() == "b1")
        #expect(try await channel.next() == "a2")
        #expect(try await channel.next() == nil)
    }

    @Test("byte arrays (napkin's own overload) take the same roads: replace by key, the policy when full, a waiting consumer")
    func bytes() async throws {
        let dropping = Channel<[UInt8]>(policy: .dropOldest(capacity: 2))
        dropping.offer([1], key: "a")
        dropping.offer([2], key: "b")
        dropping.offer([3], key: "a")
        dropping.offer([4])
        #expect(dropping.droppedCount == 1)
        dropping.finish()
        #expect(try await dropping.next() == [3])
        #expect(try await dropping.next() == [4])
        #expect(try await dropping.next() == nil)

        let holding = Channel<[UInt8]>(policy: .backpressure(capacity: 1))
        #expect(holding.offer([1]))
        #expect(!holding.offer([2]))
        holding.cancel()
        #expect(!holding.offer([3]))

        let polled = Channel<[UInt8]>(policy: .dropOldest(capacity: 4))
        let wakes = Atomic<Int>(0)
        guard case .pending = polled.poll(waker: { wakes.add(1, ordering: .relaxed) }) else { Issue.record("expected pending"); return }
        #expect(polled.offer([9], key: "k"))
        #expect(wakes.load(ordering: .relaxed) == 1)
        guard case .value([9]) = polled.poll(waker: {}) else { Issue.record("expected [9]"); return }

        // Whether the reader is already waiting or not, it gets the value.
        let waited = Channel<[UInt8]>(policy: .dropOldest(capacity: 4))
        async let next = waited.next()
        #expect(waited.offer([7]))
        #expect(try await next == [7])
    }

    @Test("poll registers a waker that an offer and a finish call")
    func pollWaker() {
        let channel = Channel<Int>(policy: .dropOldest(capacity: 4))
        let wakes = Atomic<Int>(0)
        let waker: @Sendable () -> Void = { wakes.add(1, ordering: .relaxed) }
        guard case .pending = channel.poll(waker: waker) else { Issue.record("expected pending"); return }
        channel.offer(7)
        #expect(wakes.load(ordering: .relaxed) == 1)
        guard case .value(7) = channel.poll(waker: waker) else { Issue.record("expected 7"); return }
        guard case .pending = channel.poll(waker: waker) else { Issue.record("expected pending"); return }
        channel.finish()
        #expect(wakes.load(ordering: .relaxed) == 2)
        guard case .end = channel.poll(waker: waker) else { Issue.record("expected the end"); return }
        #expect(channel.isTerminated)
    }

    @Test("a cancel calls the waker too: a sleeping poller learns the channel ended")
    func cancelWakesThePoller() {
        let channel = Channel<Int>(policy: .dropOldest(capacity: 4))
        let wakes = Atomic<Int>(0)
        guard case .pending = channel.poll(waker: { wakes.add(1, ordering: .relaxed) }) else {
            Issue.record("expected pending"); return
        }
        channel.cancel()
        channel.cancel()
        #expect(wakes.load(ordering: .relaxed) == 1)
        guard case .end = channel.poll(waker: {}) else { Issue.record("expected the end"); return }
    }

    @Test("offerIfIdle sends only to a consumer waiting on an empty buffer (heartbeats)")
    func offerIfIdle() {
        let channel = Channel<Int>(policy: .backpressure(capacity: 1))
        #expect(!channel.offerIfIdle(0))
        guard case .pending = channel.poll(waker: {}) else { Issue.record("expected pending"); return }
        #expect(channel.offerIfIdle(0))
        #expect(!channel.offerIfIdle(0))
    }

    @Test("a heartbeat goes only to an idle consumer that was sent nothing since the last heartbeat")
    func heartbeatOnlyWhenQuiet() {
        let channel = Channel<Int>(policy: .finishWhenFull(capacity: 4))
        guard case .pending = channel.poll(waker: {}) else { Issue.record("expected pending"); return }
        // Nothing was sent: the first heartbeat goes.
        #expect(channel.offerHeartbeat(0))
        guard case .value(0) = channel.poll(waker: {}) else { Issue.record("expected the heartbeat"); return }
        guard case .pending = channel.poll(waker: {}) else { Issue.record("expected pending"); return }
        // A heartbeat is not traffic that skips the next one: a quiet
        // interval sends again.
        #expect(channel.offerHeartbeat(0))
        guard case .value(0) = channel.poll(waker: {}) else { Issue.record("expected the heartbeat"); return }
        // An event in the interval: the next heartbeat is skipped, the one
        // after it goes.
        guard case .pending = channel.poll(waker: {}) else { Issue.record("expected pending"); return }
        channel.offer(7)
        guard case .value(7) = channel.poll(waker: {}) else { Issue.record("expected 7"); return }
        guard case .pending = channel.poll(waker: {}) else { Issue.record("expected pending"); return }
        #expect(!channel.offerHeartbeat(0))
        #expect(channel.offerHeartbeat(0))
        // Never to a consumer that is not waiting (the last one is unread).
        #expect(!channel.offerHeartbeat(0))
    }
}
