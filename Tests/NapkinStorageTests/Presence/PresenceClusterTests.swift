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
    /// Long enough that a busy machine (a parallel test run) never drops a
    /// live process: only the test of a dead one uses a short timeout.
    static let timeout = Duration.seconds(30)
    static let shortTimeout = Duration.seconds(1)

    func process(_ id: String, on bus: any MessageBus, timeout: Duration = Self.timeout) async -> Presence<Seat> {
        let presence = Presence<Seat>(topic: "diners", bus: bus, heartbeat: Self.heartbeat, timeout: timeout, origin: id)
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
        #expect(two.count == 2)
        await annOnTwo.deactivate()
        #expect(await seenByTwo.next() == .left("Ann"))
        await bob.deactivate()
        #expect(await seenByTwo.next() == .left("Bob"))
        await one.stop()
        await two.stop()
    }

    @Test("a process that starts later learns who is present, a set of several parts included")
    func lateProcessSyncs() async {
        let bus = LocalBus()
        // More diners than one snapshot part holds, tracked before the
        // process speaks: only its whole set can tell the other of them.
        let one = Presence<Seat>(topic: "diners", bus: bus, heartbeat: Self.heartbeat, timeout: Self.timeout, origin: "one")
        let diners = (0..<40).map { Diner(presence: one, name: "Guest \($0)", seat: Seat(table: $0)) }
        var own = await one.present.subscribe().makeAsyncIterator()
        for diner in diners { await diner.activate() }
        _ = await own.next(until: { $0.count == 40 })
        await one.start()
        let late = Presence<Seat>(topic: "diners", bus: bus, heartbeat: Self.heartbeat, timeout: Self.timeout, origin: "late")
        var list = await late.present.subscribe().makeAsyncIterator()
        await late.start()
        let everyone = Dictionary(uniqueKeysWithValues: (0..<40).map { ("Guest \($0)", Seat(table: $0)) })
        #expect(await list.next(until: { !$0.isEmpty }) == everyone)
        for diner in diners { await diner.deactivate() }
        await one.stop()
        await late.stop()
    }

    @Test("a lost message shows as a gap in the sender's numbering, and the receiver asks for the whole set")
    func gapAsksForTheSet() async {
        let bus = LocalBus()
        let lossy = CuttableBus(bus)
        let one = await process("one", on: lossy)
        let two = await process("two", on: bus)
        var seen = await two.changes.subscribe().makeAsyncIterator()
        let bob = Diner(presence: one, name: "Bob", seat: Seat(table: 2))
        await bob.activate()
        #expect(await seen.next() == .joined("Bob", Seat(table: 2)))
        // Ann's join is lost on the way; the next heartbeat's number tells.
        lossy.dropNext(containing: "Ann")
        let ann = Diner(presence: one, name: "Ann", seat: Seat(table: 1))
        await ann.activate()
        #expect(await seen.next() == .joined("Ann", Seat(table: 1)))
        await ann.deactivate()
        await bob.deactivate()
        await one.stop()
        await two.stop()
    }

    @Test("a process that goes silent (killed) leaves the others within the timeout, and its restart brings nothing stale back")
    func deadProcessExpires() async {
        let bus = LocalBus()
        let cut = CuttableBus(bus)
        let dying = await process("dying", on: cut, timeout: Self.shortTimeout)
        let survivor = await process("survivor", on: bus, timeout: Self.shortTimeout)
        var seen = await survivor.changes.subscribe().makeAsyncIterator()
        let ann = Diner(presence: dying, name: "Ann", seat: Seat(table: 1))
        await ann.activate()
        #expect(await seen.next() == .joined("Ann", Seat(table: 1)))
        cut.cut()
        let clock = ContinuousClock()
        let silent = clock.now
        #expect(await seen.next() == .left("Ann"))
        // The timeout and a heartbeat, with room for a busy machine; the
        // bound a deployment promises (5 s with its defaults) besides.
        #expect(clock.now - silent < .seconds(5))
        // The restarted process is a new id with nothing tracked: Ann
        // stays gone, there and here.
        let restarted = await process("restarted", on: bus, timeout: Self.shortTimeout)
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
            try BusEnvelope(Message.join(seq: 1, key: String(repeating: "k", count: 300), metadata: Seat(table: 1)), origin: "x").encoded, to: channel)
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
/// it hears everything and, once cut, says nothing more. It can also lose
/// one message.
final class CuttableBus: MessageBus {
    private let bus: any MessageBus
    private let isCut = Locked(false)
    private let dropsNext = Locked<String?>(nil)

    init(_ bus: any MessageBus) { self.bus = bus }

    func cut() { isCut.withLock { $0 = true } }

    /// Loses the next message published that holds `text`, as a bus under
    /// strain would.
    func dropNext(containing text: String) { dropsNext.withLock { $0 = text } }

    func publish(_ payload: [UInt8], to channel: String) async throws {
        let dropped = dropsNext.withLock { text in
            guard let wanted = text, String(decoding: payload, as: UTF8.self).contains(wanted) else { return false }
            text = nil
            return true
        }
        guard !isCut.withLock({ $0 }), !dropped else { return }
        try await bus.publish(payload, to: channel)
    }

    func publishLatest(_ payload: [UInt8], to channel: String) async throws {
        guard !isCut.withLock({ $0 }) else { return }
        try await bus.publishLatest(payload, to: channel)
    }

    func latest(on channel: String) async throws -> [UInt8]? { try await bus.latest(on: channel) }

    func subscribe(to channel: String) async -> AsyncStream<BusDelivery> { await bus.subscribe(to: channel) }
}
