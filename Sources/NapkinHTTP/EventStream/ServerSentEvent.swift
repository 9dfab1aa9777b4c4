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

    /// An event; only `data` is required.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// The event in `text/event-stream` form, ending with the blank line that dispatches it.
    /// Line breaks inside `event` and `id` are dropped: they would forge fields.
    public var encoded: String {
        String(decoding: encodedBytes, as: UTF8.self)
    }

    /// ``encoded`` as bytes: the `id:` and `retry:` lines, then the event's
    /// ``EventFrame``.
    public var encodedBytes: [UInt8] {
        let frame = EventFrame(event: event, data: data)
        guard id != nil || retry != nil else { return frame.lines }
        var out: [UInt8] = []
        out.reserveCapacity(frame.lines.count + 32)
        if let id { out += Array("id: ".utf8) + ServerSentEvent.singleLine(id) + [0x0A] }
        if let retry { out += Array("retry: \(retry)\n".utf8) }
        out += frame.lines
        return out
    }

    private static func singleLine(_ s: String) -> [UInt8] {
        s.utf8.filter { $0 != 0x0A && $0 != 0x0D }
    }
}
