extension Response {
    /// A `text/event-stream` response fed by `events`, with comment heartbeats.
    ///
    /// Events are pulled from `events` one at a time, as the client takes them,
    /// so a slow client leaves them in their source rather than in a buffer here;
    /// every `heartbeat` a waiting connection gets a `:` comment line, so proxies
    /// keep it open and a departed client is noticed.
    /// When the client goes away the server ends the body stream, which cancels the
    /// iteration of `events` — so a broadcaster's subscription is removed at once.
    public static func eventStream<S: AsyncSequence & Sendable>(_ events: S, heartbeat: Duration = .seconds(15)) -> Response where S.Element == ServerSentEvent {
        let stream = EventPull(events, heartbeat: heartbeat).stream()
        var headers: HTTPHeaders = ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"]
        headers.add(name: "X-Accel-Buffering", value: "no")
        return Response(status: .ok, headers: headers, body: .stream(stream))
    }
}
