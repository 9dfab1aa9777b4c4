/// One server-sent event, as the browser's `EventSource` receives it.
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type (`addEventListener(type, …)`); `nil` is the default "message".
    public var event: String?
    /// The payload; line breaks become several `data:` lines and are restored by the client.
    public var data: String
    /// The id the client sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The reconnection delay, in milliseconds, the client should use.
    public var retry: Int?

    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// The event in `text/event-stream` form, ending with the blank line that dispatches it.
    /// Line breaks inside `event` and `id` are dropped: they would forge fields.
    public var encoded: String {
        var out = ""
        if let event { out += "event: \(ServerSentEvent.singleLine(event))\n" }
        if let id { out += "id: \(ServerSentEvent.singleLine(id))\n" }
        if let retry { out += "retry: \(retry)\n" }
        var line = ""
        var lines: [String] = []
        var previousWasCR = false
        for c in data.unicodeScalars {
            if c == "\r" { lines.append(line); line = ""; previousWasCR = true; continue }
            if c == "\n" { if !previousWasCR { lines.append(line); line = "" }; previousWasCR = false; continue }
            previousWasCR = false
            line.unicodeScalars.append(c)
        }
        lines.append(line)
        for l in lines { out += "data: \(l)\n" }
        out += "\n"
        return out
    }

    private static func singleLine(_ s: String) -> String {
        String(s.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }.map(Character.init))
    }
}
