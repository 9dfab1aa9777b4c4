/// A signed-in guest with a tab open, as the house's presence keeps them:
/// under their name, on every process's "In the house now" list.
struct Diner: Sendable, Equatable, Codable {
    let name: String
}
