extension Response {
    /// A `text/event-stream` response fed by `events`, with comment heartbeats.
    ///
    /// A task pulls `events` one at a time into a one-ahead ``Channel``, so a
    /// slow client leaves them in their source rather than in a buffer here.
    /// However the body ends — client gone, `HEAD`, shutdown — the channel
    /// terminates, which cancels the iteration of `events` (so a
    /// broadcaster's subscription is removed at once).
    public static func eventStream<S: AsyncSequence & Sendable>(_ events: S, heartbeat: Duration = .seconds(15)) -> Response where S.Element == ServerSentEvent {
        let channel = Channel<[UInt8]>(policy: .backpressure(capacity: 1))
        let producer = Task {
            do {
                var iterator = events.makeAsyncIterator()
                while await channel.waitForRoom(), let event = try await iterator.next() {
                    guard await channel.send(event.encodedBytes) else { return }
                }
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        channel.onTermination { producer.cancel() }
        return eventStream(channel: channel, heartbeat: heartbeat)
    }

    /// A `text/event-stream` response whose encoded events (see
    /// ``ServerSentEvent/encodedBytes``) are offered to `channel` by the app.
    ///
    /// Every `heartbeat` a connection waiting on an empty channel, and sent
    /// nothing since the last heartbeat, gets a `:` comment line, so proxies
    /// keep it open. A client that closes its connection (or shuts down its
    /// sending side) ends the stream at once; on Linux, one that vanishes
    /// without a word (its network gone) is found when a heartbeat goes
    /// unacknowledged for another `heartbeat`, so within two of them. The
    /// heartbeat stops when the channel terminates.
    public static func eventStream(channel: Channel<[UInt8]>, heartbeat: Duration = .seconds(15)) -> Response {
        eventStream(.channel(channel), channel: channel, comment: Heartbeats.comment, heartbeat: heartbeat)
    }

    /// A `text/event-stream` response whose events are offered to `frames`
    /// as ``EventFrame``s: one encoding of an event, numbered per stream
    /// with ``EventFrame/numbered(_:)``, is shared by every stream that
    /// sends it. Heartbeats and endings as ``eventStream(channel:heartbeat:)``.
    public static func eventStream(frames: Channel<EventFrame>, heartbeat: Duration = .seconds(15)) -> Response {
        eventStream(.events(frames), channel: frames, comment: EventFrame(lines: Heartbeats.comment, id: nil), heartbeat: heartbeat)
    }

    private static func eventStream<Element>(
        _ body: ResponseBody, channel: Channel<Element>, comment: Element, heartbeat: Duration
    ) -> Response {
        let token = Heartbeats.shared.add({ channel.offerHeartbeat(comment) }, interval: heartbeat)
        channel.onTermination { Heartbeats.shared.remove(token, interval: heartbeat) }
        var headers: HTTPHeaders = ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"]
        headers.add(name: "X-Accel-Buffering", value: "no")
        var response = Response(status: .ok, headers: headers, body: body)
        response.unacknowledgedLimit = heartbeat
        return response
    }
}
