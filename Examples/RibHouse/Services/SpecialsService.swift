import Observation
import napkin

/// One dish on today's specials board.
struct Special: Sendable, Equatable, Encodable {
    let dish: String
    let price: String
}

/// Today's specials: main-actor `@Observable` state for whoever reads it on
/// the main actor (the JSON menu), and one `StateBroadcaster` that the
/// specials board (``AppComponent/specialsBoard``, a shared fragment)
/// follows for every tab.
///
/// Why not an `Observations { }` sequence: a cancelled observation stays
/// registered with the observed object until its next change, and the
/// specials rarely change. A broadcaster's subscription leaves when its
/// follower does.
@MainActor
@Observable
final class SpecialsService {
    private(set) var specials: [Special]
    @ObservationIgnored private nonisolated let board: StateBroadcaster<[Special]>

    init(specials: [Special] = SpecialsService.today) {
        self.specials = specials
        board = StateBroadcaster(specials)
    }

    /// Chalks up a new list (every signed-in tab shows it).
    func replace(with specials: [Special]) async {
        self.specials = specials
        await board.send(specials)
    }

    /// The current specials, then every change.
    nonisolated func updates() async -> Subscription<[Special]> {
        await board.subscribe()
    }

    /// How many follow the specials (the board: one per process).
    nonisolated var followerCount: Int {
        get async { await board.subscriberCount }
    }

    static let today = [
        Special(dish: "Burnt-end chili", price: "$9"),
        Special(dish: "Brisket on Texas toast", price: "$14"),
        Special(dish: "Smoked jalapeño mac", price: "$7"),
    ]
}
