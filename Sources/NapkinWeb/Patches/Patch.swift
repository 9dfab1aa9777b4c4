/// A fragment's new outer HTML, numbered in its session's order.
struct Patch: Sendable {
    let id: String
    let html: String
    let sequence: UInt64

    /// `{"id": …, "html": …}`, safe to embed anywhere (see ``SafeJSON``).
    var json: String {
        "{\"id\":\(SafeJSON.quote(id)),\"html\":\(SafeJSON.quote(html))}"
    }
}
