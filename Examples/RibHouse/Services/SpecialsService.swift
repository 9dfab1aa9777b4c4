import Observation

/// One dish on today's specials board.
struct Special: Sendable, Equatable, Encodable {
    let dish: String
    let price: String
}

/// Today's specials: main-actor state, so an `@Observable` class is all the
/// fan-out it needs — every `Observations { }` sequence starts with the
/// current specials and yields again on every change.
@MainActor
@Observable
final class SpecialsService {
    private(set) var specials: [Special]

    init(specials: [Special] = SpecialsService.today) {
        self.specials = specials
    }

    /// Chalks up a new list (every session's Specials napkin follows).
    func replace(with specials: [Special]) {
        self.specials = specials
    }

    static let today = [
        Special(dish: "Burnt-end chili", price: "$9"),
        Special(dish: "Brisket on Texas toast", price: "$14"),
        Special(dish: "Smoked jalapeño mac", price: "$7"),
    ]
}
