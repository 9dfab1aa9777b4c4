extension Response {
    /// A `text/event-stream` response fed by `events`, with comment heartbeats.
    ///
    /// Each event is encoded as it arrives; every `heartbeat` a `:` comment line is
    /// sent so proxies keep the connection open and a departed client is noticed.
    /// When the client goes away the server ends the body stream, which cancels the
    /// iteration of `events` — so a broadcaster's subscription is removed at once.
    public static func eventStream<S: AsyncSequence & Sendable>(_ events: S, heartbeat: Duration = .seconds(15)) -> Response where S.Element == ServerSentEvent {
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let token = Heartbeats.shared.add(continuation, interval: heartbeat)
        let producer = Task {
            do {
                for try await event in events {
                    continuation.yield(event.encodedBytes)
                }
                continuation.finish()
            } catch {
                continuation.finish()
            }
        }
        continuation.onTermination = { _ in
            producer.cancel()
            Heartbeats.shared.remove(token, interval: heartbeat)
        }
        var headers: HTTPHeaders = ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"]
        headers.add(name: "X-Accel-Buffering", value: "no")
        return Response(status: .ok, headers: headers, body: .stream(stream))
    }
}
