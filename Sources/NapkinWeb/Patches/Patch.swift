/// A fragment's new outer HTML, numbered in its session's order.
struct Patch: Sendable, Encodable {
    let id: String
    let html: String
    let sequence: UInt64

    private enum CodingKeys: String, CodingKey {
        case id, html
    }
}
