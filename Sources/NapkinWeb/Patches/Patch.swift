import NapkinHTTP

/// A fragment's new outer HTML, numbered in its tab's order.
struct Patch: Sendable {
    let id: String
    let html: String
    let sequence: UInt64

    /// The patch as an encoded server-sent event: its sequence number as the
    /// id, then `event: patch` and its JSON. Written in one buffer, whose
    /// part after the id line the next tab patching the same place with
    /// the same HTML reuses (see ``PatchBodies``).
    @MainActor
    var event: [UInt8] {
        if let body = PatchBodies.body(for: self) { return Self.event(sequence: sequence, body: body) }
        let (event, bodyStart) = encoded(withSequence: true)
        PatchBodies.remember(self, body: event[bodyStart...])
        return event
    }

    /// An encoded patch event: the id line for `sequence`, then `body` (see
    /// ``body``), which tabs showing the same HTML at the same place share.
    static func event(sequence: UInt64, body: [UInt8]) -> [UInt8] {
        event(sequence: sequence, body: body[...])
    }

    static func event(sequence: UInt64, body: ArraySlice<UInt8>) -> [UInt8] {
        body.withUnsafeBufferPointer { body in
            [UInt8](unsafeUninitializedCapacity: idLineCount(sequence) + body.count) { buffer, initialized in
                var writer = ByteWriter(buffer)
                writeIDLine(sequence, to: &writer)
                writer.put(body)
                initialized = writer.count
            }
        }
    }

    /// The event without its id line: the same for every tab that patches
    /// the same fragment place with the same HTML. `event: patch`, then
    /// `{"id": …, "html": …}` (safe to embed anywhere, see ``SafeJSON``) as
    /// one `data:` line: ``SafeJSON`` escapes every line break.
    var body: [UInt8] {
        encoded(withSequence: false).bytes
    }

    /// The event, with or without its id line, written straight into one
    /// buffer of its exact size; and where the part after the id line starts.
    private func encoded(withSequence: Bool) -> (bytes: [UInt8], bodyStart: Int) {
        var id = id, html = html
        let idLine = withSequence ? Self.idLineCount(sequence) : 0
        return id.withUTF8 { id in
            html.withUTF8 { html in
                let head: StaticString = "event: patch\ndata: {\"id\":"
                let middle: StaticString = ",\"html\":"
                let tail: StaticString = "}\n\n"
                let total = idLine + head.utf8CodeUnitCount + SafeJSON.quotedCount(id) + middle.utf8CodeUnitCount
                    + SafeJSON.quotedCount(html) + tail.utf8CodeUnitCount
                let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                    var writer = ByteWriter(buffer)
                    if withSequence { Self.writeIDLine(sequence, to: &writer) }
                    writer.put(head)
                    SafeJSON.writeQuoted(id, to: &writer)
                    writer.put(middle)
                    SafeJSON.writeQuoted(html, to: &writer)
                    writer.put(tail)
                    initialized = writer.count
                }
                return (bytes, idLine)
            }
        }
    }

    /// `id: <sequence>` and a line break.
    private static func writeIDLine(_ sequence: UInt64, to writer: inout ByteWriter) {
        writer.put("id: ")
        writer.put(decimal: sequence)
        writer.put(0x0A)
    }

    private static func idLineCount(_ sequence: UInt64) -> Int {
        4 + ByteWriter.decimalCount(sequence) + 1
    }
}

/// The most recently encoded patch body, reused while the same fragment
/// place gets the same HTML: one app-wide change (the pit's header line)
/// patches thousands of tabs with identical bytes, and fragment ids name
/// places, so they are identical too — the JSON is escaped once, not once
/// per tab. The body is kept as the part of the first tab's event after its
/// id line, so a patch no other tab shares costs one buffer, not two.
@MainActor
enum PatchBodies {
    private static var recent: (id: String, html: String, body: ArraySlice<UInt8>)?

    /// The body encoded for the same place and HTML as `patch`, if it was the last one.
    static func body(for patch: Patch) -> ArraySlice<UInt8>? {
        guard let recent, recent.id == patch.id, recent.html == patch.html else { return nil }
        return recent.body
    }

    static func remember(_ patch: Patch, body: ArraySlice<UInt8>) {
        recent = (patch.id, patch.html, body)
    }
}
