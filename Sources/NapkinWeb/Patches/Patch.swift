import NapkinHTTP

/// A fragment's new outer HTML, numbered in its session's order.
struct Patch: Sendable {
    let id: String
    let html: String
    let sequence: UInt64

    /// `{"id": …, "html": …}`, safe to embed anywhere (see ``SafeJSON``).
    var json: String {
        "{\"id\":\(SafeJSON.quote(id)),\"html\":\(SafeJSON.quote(html))}"
    }

    /// The patch as an encoded server-sent event: `event: patch`, its JSON,
    /// and its sequence number as the id.
    var event: [UInt8] {
        ServerSentEvent(event: "patch", data: json, id: String(sequence)).encodedBytes
    }
}
