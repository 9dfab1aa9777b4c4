/// The signed-in guest. A plain value: it crosses from the auth service's
/// actor to routers and presenters without ceremony.
struct User: Sendable, Equatable, Codable {
    let name: String
    let barbecueFoods: [String]

    /// The tray every guest gets: the seed's barbecue foods, in menu order.
    static let barbecueFoods = ["Brisket", "Pulled Pork", "St. Louis Ribs", "Burnt Ends", "Smoked Sausage"]
}

extension User {
    private enum CodingKeys: String, CodingKey {
        case name, barbecueFoods
    }

    /// Read back from the session's record (in Redis, where another writer
    /// could have put it): a name login would accept, foods off the menu.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let foods = try container.decode([String].self, forKey: .barbecueFoods)
        guard (try? LoginError.validate(name: name)) == name else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "not a name login accepts")
        }
        guard foods.count <= Self.barbecueFoods.count, foods.allSatisfy(Self.barbecueFoods.contains) else {
            throw DecodingError.dataCorruptedError(forKey: .barbecueFoods, in: container, debugDescription: "not the menu's foods")
        }
        self.init(name: name, barbecueFoods: foods)
    }
}
