import NapkinHTTP

/// A fragment's new outer HTML: the value a tab's streams send when a
/// fragment changes. Its data is ``WireProtocol/PatchData`` as JSON, and
/// NapkinHTTP's ``/NapkinHTTP/EventFrame`` frames it as a server-sent event.
struct Patch: Sendable {
    let id: String
    let html: String

    /// `{"id": …, "html": …}` (safe to embed anywhere, see ``SafeJSON``),
    /// written straight into one buffer of its exact size. ``SafeJSON``
    /// escapes every line break, so the data is one `data:` line.
    var data: [UInt8] {
        var id = id, html = html
        return id.withUTF8 { id in
            html.withUTF8 { html in
                let head: StaticString = "{\"id\":"
                let middle: StaticString = ",\"html\":"
                let total = head.utf8CodeUnitCount + SafeJSON.quotedCount(id) + middle.utf8CodeUnitCount
                    + SafeJSON.quotedCount(html) + 1
                return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                    var writer = ByteWriter(buffer)
                    writer.put(head)
                    SafeJSON.writeQuoted(id, to: &writer)
                    writer.put(middle)
                    SafeJSON.writeQuoted(html, to: &writer)
                    writer.put(UInt8(ascii: "}"))
                    initialized = writer.count
                }
            }
        }
    }

    /// The patch as a `patch` event, without the id line each stream adds:
    /// encoded once while the same place gets the same HTML (see
    /// ``PatchFrames``).
    @MainActor
    var frame: EventFrame {
        if let frame = PatchFrames.frame(for: self) { return frame }
        let frame = EventFrame(event: WireProtocol.Event.patch, data: data)
        PatchFrames.remember(self, frame: frame)
        return frame
    }
}

/// The most recently encoded patch frame, reused while the same fragment
/// place gets the same HTML: one app-wide change (the pit's header line)
/// patches thousands of tabs with identical bytes, and fragment ids name
/// places, so they are identical too: the JSON is escaped once, not once
/// per tab.
@MainActor
enum PatchFrames {
    private static var recent: (id: String, html: String, frame: EventFrame)?

    /// The frame encoded for the same place and HTML as `patch`, if it was the last one.
    static func frame(for patch: Patch) -> EventFrame? {
        guard let recent, recent.id == patch.id, recent.html == patch.html else { return nil }
        return recent.frame
    }

    static func remember(_ patch: Patch, frame: EventFrame) {
        recent = (patch.id, patch.html, frame)
    }
}
