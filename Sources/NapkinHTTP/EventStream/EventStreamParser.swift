/// An incremental `text/event-stream` parser, following the WHATWG rules.
///
/// Feed it bytes as they arrive, in chunks of any size; it returns the events
/// completed by each chunk. Test clients use it to read napkin's streams the
/// way a browser would.
public struct EventStreamParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var data = ""
    private var hasData = false
    private var event: String?
    private var id: String?
    private var retry: Int?
    /// The number of comment lines (heartbeats) seen so far.
    public private(set) var comments = 0
    /// The id of the last dispatched event, as `EventSource` would remember it.
    public private(set) var lastEventID: String?

    /// A parser at the start of a stream.
    public init() {}

    /// Consumes `bytes` and returns the events they complete.
    public mutating func feed(_ bytes: [UInt8]) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for b in bytes {
            if b == 0x0A, lastWasCR { lastWasCR = false; continue }
            lastWasCR = b == 0x0D
            if b == 0x0A || b == 0x0D {
                if let e = processLine() { events.append(e) }
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(b)
            }
        }
        return events
    }

    private mutating func processLine() -> ServerSentEvent? {
        if line.isEmpty {
            defer { data = ""; hasData = false; event = nil; id = nil; retry = nil }
            guard hasData else { return nil }
            if let id { lastEventID = id }
            return ServerSentEvent(event: event, data: data, id: id, retry: retry)
        }
        if line.first == 0x3A { comments += 1; return nil }
        // Split as bytes: a space followed by a combining mark is one
        // Character, but only the space byte is the separator's.
        var name = String(decoding: line, as: UTF8.self)
        var value = ""
        if let colon = line.firstIndex(of: 0x3A) {
            name = String(decoding: line[..<colon], as: UTF8.self)
            var start = line.index(after: colon)
            if start < line.endIndex, line[start] == 0x20 { start += 1 }
            value = String(decoding: line[start...], as: UTF8.self)
        }
        switch name {
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "event": event = value
        case "id": if !value.contains("\0") { id = value }
        case "retry": if let n = Int(value), n >= 0 { retry = n }
        default: break
        }
        return nil
    }
}
