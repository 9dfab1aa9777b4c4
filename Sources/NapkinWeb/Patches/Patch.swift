import NapkinHTTP

/// A fragment's new outer HTML, numbered in its tab's order.
struct Patch: Sendable {
    let id: String
    let html: String
    let sequence: UInt64

    /// `{"id": …, "html": …}`, safe to embed anywhere (see ``SafeJSON``).
    var json: String {
        "{\"id\":\(SafeJSON.quote(id)),\"html\":\(SafeJSON.quote(html))}"
    }

    /// The patch as an encoded server-sent event: its sequence number as the
    /// id, then `event: patch` and its JSON.
    @MainActor
    var event: [UInt8] {
        Self.event(sequence: sequence, body: PatchBodies.body(of: self))
    }

    /// An encoded patch event: the id line for `sequence`, then `body` (see
    /// ``body``), which tabs showing the same HTML at the same place share.
    static func event(sequence: UInt64, body: [UInt8]) -> [UInt8] {
        body.withUnsafeBufferPointer { body in
            let total = 4 + ByteWriter.decimalCount(sequence) + 1 + body.count
            return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                var writer = ByteWriter(buffer.baseAddress!)
                writer.put("id: ")
                writer.put(decimal: sequence)
                writer.put(0x0A)
                writer.put(body)
                initialized = writer.count
            }
        }
    }

    /// The event without its id line: the same for every tab that patches
    /// the same fragment place with the same HTML. The same bytes as
    /// `ServerSentEvent(event: "patch", data: json).encodedBytes` (the JSON
    /// is one line: ``SafeJSON`` escapes every line break), written straight
    /// into one buffer of their exact size.
    var body: [UInt8] {
        var id = id, html = html
        return id.withUTF8 { id in
            html.withUTF8 { html in
                let head: StaticString = "event: patch\ndata: {\"id\":"
                let middle: StaticString = ",\"html\":"
                let tail: StaticString = "}\n\n"
                let total = head.utf8CodeUnitCount + SafeJSON.quotedCount(id) + middle.utf8CodeUnitCount
                    + SafeJSON.quotedCount(html) + tail.utf8CodeUnitCount
                return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                    var writer = ByteWriter(buffer.baseAddress!)
                    writer.put(head)
                    SafeJSON.writeQuoted(id, to: &writer)
                    writer.put(middle)
                    SafeJSON.writeQuoted(html, to: &writer)
                    writer.put(tail)
                    initialized = writer.count
                }
            }
        }
    }
}

/// The most recently encoded patch body, reused while the same fragment
/// place gets the same HTML: one app-wide change (the pit's header line)
/// patches thousands of tabs with identical bytes, and fragment ids name
/// places, so they are identical too — the JSON is escaped once, not once
/// per tab.
@MainActor
enum PatchBodies {
    private static var recent: (id: String, html: String, body: [UInt8])?

    static func body(of patch: Patch) -> [UInt8] {
        if let recent, recent.id == patch.id, recent.html == patch.html { return recent.body }
        let body = patch.body
        recent = (patch.id, patch.html, body)
        return body
    }
}
