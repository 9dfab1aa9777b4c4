/// The one place napkin writes server-sent event framing.
///
/// An event's `event:` and `data:` lines are encoded once, and shared by
/// every stream that sends the event: each stream numbers its copy with its
/// own `id:` line (``numbered(_:)``), which shares the lines' storage, so a
/// live change that patches thousands of tabs neither escapes nor copies its
/// data per tab. Line breaks in the data become further `data:` lines, which
/// the client joins back; line breaks in the name are dropped, since they
/// would forge fields.
public struct EventFrame: Sendable, Equatable {
    /// The `event:` line (when named), the `data:` lines and the blank line
    /// that dispatches the event: the part every stream shares.
    public let lines: [UInt8]

    /// The number one stream sends before ``lines`` as its `id:` line (the
    /// number its client sends back as `Last-Event-ID`); `nil` sends none.
    public let id: UInt64?

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
        self.init(lines: out, id: nil)
    }

    /// Lines already in event-stream form (a heartbeat's comment), sent as given.
    init(lines: [UInt8], id: UInt64?) {
        self.lines = lines
        self.id = id
    }

    /// The event as one stream sends it: `id: <id>` first, then the same
    /// ``lines`` (shared, not copied).
    public func numbered(_ id: UInt64) -> EventFrame {
        EventFrame(lines: lines, id: id)
    }

    /// How many bytes the stream sends: the `id:` line and ``lines``.
    public var byteCount: Int {
        idLineCount + lines.count
    }

    /// The event as the stream sends it, in one buffer of its exact size.
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            if let target = buffer.baseAddress { copyBytes(from: 0, count: buffer.count, into: target) }
            initialized = buffer.count
        }
    }

    /// Copies `count` bytes of ``bytes``, from `offset`, to `target`, without
    /// building ``bytes``: how the body pump writes an event into
    /// libmicrohttpd's buffer.
    func copyBytes(from offset: Int, count: Int, into target: UnsafeMutableRawPointer) {
        var offset = offset, count = count, target = target
        let idCount = idLineCount
        if offset < idCount, let id {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: idCount) { line in
                EventFrame.writeIDLine(id, into: line)
                let n = Swift.min(idCount - offset, count)
                target.copyMemory(from: line.baseAddress! + offset, byteCount: n)
                offset += n
                count -= n
                target += n
            }
        }
        guard count > 0 else { return }
        lines.withUnsafeBytes { lines in
            target.copyMemory(from: lines.baseAddress! + (offset - idCount), byteCount: count)
        }
    }

    private var idLineCount: Int {
        id.map { 5 + EventFrame.decimalCount($0) } ?? 0
    }

    /// Writes `id: <id>\n` into `line`, which holds exactly that many bytes.
    private static func writeIDLine(_ id: UInt64, into line: UnsafeMutableBufferPointer<UInt8>) {
        line[0] = UInt8(ascii: "i"); line[1] = UInt8(ascii: "d"); line[2] = UInt8(ascii: ":"); line[3] = 0x20
        var value = id
        var index = line.count - 1
        line[index] = 0x0A
        repeat {
            index -= 1
            line[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while value > 0
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
