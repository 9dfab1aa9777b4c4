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

    /// ``encoded`` as bytes, built without per-character string appends:
    /// a live app encodes one event per open stream for every change.
    public var encodedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.utf8.count + 64)
        if let event { out += Array("event: ".utf8) + ServerSentEvent.singleLine(event) + [0x0A] }
        if let id { out += Array("id: ".utf8) + ServerSentEvent.singleLine(id) + [0x0A] }
        if let retry { out += Array("retry: \(retry)\n".utf8) }
        let dataPrefix: StaticString = "data: "
        let prefix = UnsafeRawBufferPointer(start: dataPrefix.utf8Start, count: dataPrefix.utf8CodeUnitCount)
        out.append(contentsOf: prefix)
        var data = data
        data.withUTF8 { bytes in
            // Runs without a line break are copied whole.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte == 0x0D || byte == 0x0A else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                // CRLF is one line break: its LF was already written by the CR.
                if byte == 0x0A, index > 0, bytes[index - 1] == 0x0D { continue }
                out.append(0x0A)
                out.append(contentsOf: prefix)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(0x0A)
        out.append(0x0A)
        return out
    }

    private static func singleLine(_ s: String) -> [UInt8] {
        s.utf8.filter { $0 != 0x0A && $0 != 0x0D }
    }
}
