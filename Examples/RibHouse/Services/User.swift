/// The signed-in guest. A plain value: it crosses from the auth service's
/// actor to routers and presenters without ceremony.
struct User: Sendable, Equatable, Codable {
    let name: String
    let barbecueFoods: [String]

    /// The tray every guest gets: the seed's barbecue foods, in menu order.
    static let barbecueFoods = ["Brisket", "Pulled Pork", "St. Louis Ribs", "Burnt Ends", "Smoked Sausage"]
}
