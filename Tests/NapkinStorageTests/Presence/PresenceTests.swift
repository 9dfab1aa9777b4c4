import Testing
import napkin
@testable import NapkinStorage

/// One process: trackers bound to interactors.
@Suite("Presence", .timeLimit(.minutes(1)))
struct PresenceTests {
    @Test("two napkins tracking one key are one entry, which leaves when the last one resigns, with no code of theirs")
    func oneEntryPerKey() async {
        let presence = Presence<Seat>(topic: "diners")
        var changes = await presence.changes.subscribe().makeAsyncIterator()
        let firstTab = Diner(presence: presence, name: "Ann", seat: Seat(table: 1))
        let secondTab = Diner(presence: presence, name: "Ann", seat: Seat(table: 1))
        await firstTab.activate()
        #expect(await changes.next() == .joined("Ann", Seat(table: 1)))
        await secondTab.activate()
        await firstTab.deactivate()
        // Ann is still here through the second tab: no leave, no second join.
        #expect(presence.current == ["Ann": Seat(table: 1)])
        await secondTab.deactivate()
        #expect(await changes.next() == .left("Ann"))
        #expect(presence.current.isEmpty)
        #expect(await presence.present.value.isEmpty)
    }

    @Test("a key's metadata is its oldest tracker's: when that one ends, the key joins again with the next one's")
    func metadataFollowsTheOldestTracker() async {
        let presence = Presence<Seat>(topic: "diners")
        var changes = await presence.changes.subscribe().makeAsyncIterator()
        let first = Diner(presence: presence, name: "Ann", seat: Seat(table: 1))
        let second = Diner(presence: presence, name: "Ann", seat: Seat(table: 2))
        await first.activate()
        await second.activate()
        #expect(await changes.next() == .joined("Ann", Seat(table: 1)))
        await first.deactivate()
        #expect(await changes.next() == .joined("Ann", Seat(table: 2)))
        await second.deactivate()
        #expect(await changes.next() == .left("Ann"))
    }

    @Test("the list and the count follow joins and leaves of different keys")
    func listFollows() async {
        let presence = Presence<Seat>(topic: "diners")
        var list = await presence.present.subscribe().makeAsyncIterator()
        #expect(await list.next() == [:])
        let ann = Diner(presence: presence, name: "Ann", seat: Seat(table: 1))
        let bob = Diner(presence: presence, name: "Bob", seat: Seat(table: 4))
        await ann.activate()
        #expect(await list.next(until: { $0.count == 1 }) == ["Ann": Seat(table: 1)])
        await bob.activate()
        #expect(await list.next(until: { $0.count == 2 }) == ["Ann": Seat(table: 1), "Bob": Seat(table: 4)])
        #expect(presence.count == 2)
        await ann.deactivate()
        #expect(await list.next(until: { $0.count == 1 }) == ["Bob": Seat(table: 4)])
        #expect(presence.count == 1)
        await bob.deactivate()
        #expect(presence.count == 0)
    }

    @Test("an inactive napkin, one in a tree nobody views, and an oversized key track nothing")
    func refused() async {
        let presence = Presence<Seat>(topic: "diners")
        let idle = Diner(presence: presence, name: "Ann", seat: Seat(table: 1))
        #expect(await presence.track("Ann", Seat(table: 1), by: idle) == false)
        let launch = await LaunchRouter<Diner, Nothing>(interactor: Diner(presence: presence, name: "Cy", seat: Seat(table: 2)), viewController: Nothing())
        await Viewing.$isViewed.withValue(false) { await launch.launch(from: NoHost()) }
        #expect(await launch.interactor.tracked == false)
        let long = Diner(presence: presence, name: String(repeating: "n", count: 257), seat: Seat(table: 3))
        await long.activate()
        #expect(await long.tracked == false)
        #expect(presence.current.isEmpty)
        await launch.terminate()
    }
}

struct Seat: Codable, Sendable, Equatable {
    let table: Int
}

/// A napkin that tracks its diner while active.
final actor Diner: Interactable {
    private let presence: Presence<Seat>
    private let name: String
    private let seat: Seat
    private(set) var tracked: Bool?

    init(presence: Presence<Seat>, name: String, seat: Seat) {
        self.presence = presence
        self.name = name
        self.seat = seat
    }

    func didBecomeActive() async {
        tracked = await presence.track(name, seat, by: self)
    }
}

@MainActor final class Nothing: ViewControllable {}

@MainActor final class NoHost: LaunchHost {
    func setRootViewControllable(_ viewControllable: any ViewControllable) {}
}

extension Subscription.Iterator {
    /// The next value that satisfies `done`, skipping the others.
    mutating func next(until done: (Element) -> Bool) async -> Element? {
        while let value = await next() {
            if done(value) { return value }
        }
        return nil
    }
}
