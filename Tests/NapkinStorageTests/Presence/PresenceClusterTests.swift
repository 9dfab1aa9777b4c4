@_spi(Napkin) import NapkinSupport
import Foundation
import Testing
import napkin
@testable import NapkinStorage

/// Several processes in one: `Presence` instances speaking for different
/// process ids over one bus, with a short heartbeat and timeout.
@Suite("Presence across processes", .timeLimit(.minutes(1)))
struct PresenceClusterTests {
    static let heartbeat = Duration.milliseconds(50)
    static let timeout = Duration.milliseconds(300)

    func process(_ id: String, on bus: any MessageBus) async -> Presence<Seat> {
        let presence = Presence<Seat>(topic: "diners", bus: bus, heartbeat: Self.heartbeat, timeout: Self.timeout, origin: id)
        await presence.start()
        return presence
    }

    @Test("an entry tracked in one process is present in both, and one key tracked in both leaves when the last one goes")
    func entriesCross() async {
        let bus = LocalBus()
        let one = await process("one", on: bus)
        let two = await process("two", on: bus)
        var seenByTwo = await two.changes.subscribe().makeAsyncIterator()
        let annOnOne = Diner(presence: one, name: "Ann", seat: Seat(table: 1))
        await annOnOne.activate()
        #expect(await seenByTwo.next() == .joined("Ann", Seat(table: 1)))
        let annOnTwo = Diner(presence: two, name: "Ann", seat: Seat(table: 1))
        await annOnTwo.activate()
        await annOnOne.deactivate()
        let bob = Diner(presence: one, name: "Bob", seat: Seat(table: 2))
        await bob.activate()
        // Ann's leave in one is not a leave in two: the next change two sees is Bob.
        #expect(await seenByTwo.next() == .joined("Bob", Seat(table: 2)))
        #expect(two.current.keys.sorted() == ["Ann", "Bob"])
        await annOnTwo.deactivate()
        #expect(await seenByTwo.next() == .left("Ann"))
        await bob.deactivate()
        #expect(await seenByTwo.next() == .left("Bob"))
        await one.stop()
        await two.stop()
    }

    @Test("a process that starts later learns who is present")
    func lateProcessSyncs() async {
        let bus = LocalBus()
        let one = await process("one", on: bus)
        let ann = Diner(presence: one, name: "Ann", seat: Seat(table: 1))
        await ann.activate()
        let late = Presence<Seat>(topic: "diners", bus: bus, heartbeat: Self.heartbeat, timeout: Self.timeout, origin: "late")
        var list = await late.present.subscribe().makeAsyncIterator()
        await late.start()
        #expect(await list.next(until: { !$0.isEmpty }) == ["Ann": Seat(table: 1)])
        await ann.deactivate()
        await one.stop()
        await late.stop()
    }

    @Test("a process that goes silent (killed) leaves the others within the timeout, and its restart brings nothing stale back")
    func deadProcessExpires() async {
        let bus = LocalBus()
        let cut = CuttableBus(bus)
        let dying = await process("dying", on: cut)
        let survivor = await process("survivor", on: bus)
        var seen = await survivor.changes.subscribe().makeAsyncIterator()
        let ann = Diner(presence: dying, name: "Ann", seat: Seat(table: 1))
        await ann.activate()
        #expect(await seen.next() == .joined("Ann", Seat(table: 1)))
        cut.cut()
        let clock = ContinuousClock()
        let silent = clock.now
        #expect(await seen.next() == .left("Ann"))
        #expect(clock.now - silent < Self.timeout + Self.heartbeat * 4)
        // The restarted process is a new id with nothing tracked: Ann
        // stays gone, there and here.
        let restarted = await process("restarted", on: bus)
        let bob = Diner(presence: restarted, name: "Bob", seat: Seat(table: 2))
        await bob.activate()
        #expect(await seen.next() == .joined("Bob", Seat(table: 2)))
        #expect(survivor.current.keys.sorted() == ["Bob"])
        await bob.deactivate()
        #expect(await seen.next() == .left("Bob"))
        await ann.deactivate()
        await dying.stop()
        await survivor.stop()
        await restarted.stop()
    }

    @Test("a process that stops says goodbye: its entries leave at once")
    func stopSaysGoodbye() async {
        let bus = LocalBus()
        let one = await process("one", on: bus)
        let two = Presence<Seat>(topic: "diners", bus: bus, heartbeat: .seconds(30), timeout: .seconds(60), origin: "two")
        await two.start()
        var seen = await two.changes.subscribe().makeAsyncIterator()
        let ann = Diner(presence: one, name: "Ann", seat: Seat(table: 1))
        await ann.activate()
        #expect(await seen.next() == .joined("Ann", Seat(table: 1)))
        await one.stop()
        // Two's timeout is a minute: only the goodbye can make Ann leave now.
        #expect(await seen.next() == .left("Ann"))
        await ann.deactivate()
        await two.stop()
    }

    @Test("malformed, oversized and out-of-bounds bus messages are refused")
    func malformedRefused() async throws {
        let bus = LocalBus()
        let here = await process("here", on: bus)
        var seen = await here.changes.subscribe().makeAsyncIterator()
        let channel = "presence.diners"
        typealias Message = PresenceMessage<Seat>
        try await bus.publish(Array("not json".utf8), to: channel)
        try await bus.publish(Array(repeating: 0x20, count: 70_000), to: channel)
        try await bus.publish(try BusEnvelope(Message.join(seq: 1, key: "", metadata: Seat(table: 1)), origin: "x").encoded, to: channel)
        try await bus.publish(
            try BusEnvelope(Message.join(seq: 1, key: String(repeating: "k", count: 200), metadata: Seat(table: 1)), origin: "x").encoded, to: channel)
        try await bus.publish(
            try BusEnvelope(Message.snapshot(seq: 2, part: 3, parts: 2, entries: ["Eve": Seat(table: 9)]), origin: "x").encoded, to: channel)
        try await bus.publish(try BusEnvelope(Message.join(seq: 3, key: "Eve", metadata: Seat(table: 9)), origin: "bad origin!").encoded, to: channel)
        // A well-formed one after them: the only change seen.
        try await bus.publish(try BusEnvelope(Message.join(seq: 1, key: "Dee", metadata: Seat(table: 5)), origin: "x").encoded, to: channel)
        #expect(await seen.next() == .joined("Dee", Seat(table: 5)))
        #expect(here.current.keys.sorted() == ["Dee"])
        #expect(RefusedInput.wasReported("bus message on \(channel)"))
        await here.stop()
    }
}

/// A bus whose sending side can be cut, as a process killed mid-flight:
/// it hears everything and, once cut, says nothing more.
final class CuttableBus: MessageBus {
    private let bus: any MessageBus
    private let isCut = Locked(false)

    init(_ bus: any MessageBus) { self.bus = bus }

    func cut() { isCut.withLock { $0 = true } }

    func publish(_ payload: [UInt8], to channel: String) async throws {
        guard !isCut.withLock({ $0 }) else { return }
        try await bus.publish(payload, to: channel)
    }

    func publishLatest(_ payload: [UInt8], to channel: String) async throws {
        guard !isCut.withLock({ $0 }) else { return }
        try await bus.publishLatest(payload, to: channel)
    }

    func latest(on channel: String) async throws -> [UInt8]? { try await bus.latest(on: channel) }

    func subscribe(to channel: String) async -> AsyncStream<BusDelivery> { await bus.subscribe(to: channel) }
}
