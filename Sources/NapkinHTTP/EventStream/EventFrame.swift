/// The one place napkin writes server-sent event framing.
///
/// An event's `event:` and `data:` lines are encoded once, and shared by
/// every stream that sends the event: each stream frames them with its own
/// `id:` line (a live change that patches thousands of tabs escapes its
/// data once). Line breaks in the data become further `data:` lines, which
/// the client joins back; line breaks in the name are dropped, since they
/// would forge fields.
public struct EventFrame: Sendable, Equatable {
    /// The `event:` line (when named), the `data:` lines and the blank line
    /// that dispatches the event: the part every stream shares.
    public let lines: [UInt8]

    /// An event named `event` (`nil`: the default "message") carrying `data`.
    public init(event: String?, data: String) {
        var data = data
        self.init(event: event, data: data.withUTF8 { Array($0) })
    }

    /// An event named `event` carrying `data`, bytes of UTF-8 text.
    public init(event: String?, data: [UInt8]) {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 24)
        if let event {
            out += EventFrame.eventPrefix
            out += event.utf8.filter { $0 != 0x0A && $0 != 0x0D }
            out.append(0x0A)
        }
        out += EventFrame.dataPrefix
        // Runs without a line break are copied whole.
        var runStart = 0
        for index in data.indices {
            let byte = data[index]
            guard byte == 0x0D || byte == 0x0A else { continue }
            out += data[runStart..<index]
            runStart = index + 1
            // CRLF is one line break: its LF was already written by the CR.
            if byte == 0x0A, index > 0, data[index - 1] == 0x0D { continue }
            out.append(0x0A)
            out += EventFrame.dataPrefix
        }
        out += data[runStart...]
        out.append(0x0A)
        out.append(0x0A)
        lines = out
    }

    /// The event as one stream sends it: `id: <id>` first (the number the
    /// client sends back as `Last-Event-ID`), then ``lines``, in one buffer
    /// of its exact size.
    public func framed(id: UInt64) -> [UInt8] {
        let digits = EventFrame.decimalCount(id)
        return [UInt8](unsafeUninitializedCapacity: 5 + digits + lines.count) { buffer, initialized in
            buffer[0] = UInt8(ascii: "i"); buffer[1] = UInt8(ascii: "d"); buffer[2] = UInt8(ascii: ":"); buffer[3] = 0x20
            var value = id
            var index = 4 + digits
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            buffer[4 + digits] = 0x0A
            lines.withUnsafeBufferPointer { lines in
                guard let source = lines.baseAddress, let target = buffer.baseAddress else { return }
                (target + 5 + digits).update(from: source, count: lines.count)
            }
            initialized = 5 + digits + lines.count
        }
    }

    private static let eventPrefix = Array("event: ".utf8)
    private static let dataPrefix = Array("data: ".utf8)

    private static func decimalCount(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 { rest /= 10; digits += 1 }
        return digits
    }
}
