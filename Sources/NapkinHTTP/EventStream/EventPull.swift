/// Feeds an event-stream body from its source, at most one event ahead of
/// what the server has taken.
///
/// The server stops taking while a slow client's socket is full, so events
/// stay in their source — where napkin's patch streams keep only the latest
/// HTML per fragment — instead of piling up, encoded, in the response. One
/// event of look-ahead keeps delivery to a waiting client a single hand-off.
/// While the server waits for an event, a heartbeat tick answers it with a
/// comment line; the event, when it comes, goes out on the next ask.
final class EventPull: Sendable {
    private struct State {
        /// The server, waiting for the next chunk.
        var reader: CheckedContinuation<[UInt8]?, any Error>?
        /// The one event fetched ahead, not yet taken.
        var ready: Result<[UInt8]?, any Error>?
        /// The producer, waiting for the event ahead to be taken.
        var producer: CheckedContinuation<Bool, Never>?
        var done = false
    }

    private let state = Locked(State())
    private let producer: Task<Void, Never>
    private let heartbeat: Duration
    private let heartbeatToken: UInt64

    init<S: AsyncSequence & Sendable>(_ events: S, heartbeat: Duration) where S.Element == ServerSentEvent {
        let state = state
        producer = Task {
            var iterator = events.makeAsyncIterator()
            while await EventPull.roomAhead(state) {
                let result: Result<[UInt8]?, any Error>
                do {
                    result = .success(try await iterator.next()?.encodedBytes)
                } catch {
                    result = .failure(error)
                }
                EventPull.supply(result, to: state)
                guard case .success(.some) = result else { return }
            }
        }
        self.heartbeat = heartbeat
        heartbeatToken = Heartbeats.shared.add({ EventPull.beat(state) }, interval: heartbeat)
    }

    deinit {
        stop()
        Heartbeats.shared.remove(heartbeatToken, interval: heartbeat)
    }

    /// The body as a stream the server pulls from.
    func stream() -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { [self] in try await next() }
    }

    /// The next chunk: an event, a heartbeat, or `nil` at the end.
    private func next() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reader: CheckedContinuation<[UInt8]?, any Error>) in
                let (answer, producer) = state.withLock { state -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Bool, Never>?) in
                    if let ready = state.ready {
                        state.ready = nil
                        defer { state.producer = nil }
                        return (ready, state.producer)
                    }
                    if state.done { return (.success(nil), nil) }
                    state.reader = reader
                    return (nil, nil)
                }
                producer?.resume(returning: true)
                if let answer { reader.resume(with: answer) }
            }
        } onCancel: {
            stop()
        }
    }

    /// Ends the body: the server's reader gets `nil`, and the source's
    /// iteration is cancelled (so its subscriptions go away).
    private func stop() {
        let (reader, waiting) = state.withLock { state in
            state.done = true
            defer {
                state.reader = nil
                state.producer = nil
            }
            return (state.reader, state.producer)
        }
        reader?.resume(returning: nil)
        waiting?.resume(returning: false)
        producer.cancel()
    }

    /// The producer's wait until the event ahead is taken; `false` once the
    /// body ended.
    private static func roomAhead(_ state: Locked<State>) async -> Bool {
        await withCheckedContinuation { (producer: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if state.done { return false }
                if state.ready == nil { return true }
                state.producer = producer
                return nil
            }
            if let answer { producer.resume(returning: answer) }
        }
    }

    private static func supply(_ result: Result<[UInt8]?, any Error>, to state: Locked<State>) {
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            if case .success(.some) = result {} else { state.done = true }
            guard let reader = state.reader else {
                state.ready = result
                return nil
            }
            state.reader = nil
            return reader
        }
        reader?.resume(with: result)
    }

    /// A heartbeat tick: answers a waiting reader with a comment line.
    private static func beat(_ state: Locked<State>) {
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            guard state.ready == nil else { return nil }
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: Heartbeats.comment)
    }
}
