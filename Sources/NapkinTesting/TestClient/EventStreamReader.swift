import Foundation
import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import NapkinWeb
import napkin

/// Reads a napkin event stream in a test: events as they arrive, or the
/// next patch that matches.
public final class EventStreamReader: Sendable {
    /// A live patch: a fragment's new outer HTML.
    public struct Patch: Decodable, Sendable {
        /// The fragment id.
        public let id: String
        /// The fragment's new outer HTML.
        public let html: String
        /// The event id it came with.
        public internal(set) var eventID: UInt64?
        /// What the patch cost on the wire: its whole encoded event frame
        /// (`event:`, `id:` and `data:` lines included), in bytes.
        public internal(set) var wireBytes = 0

        /// Decodes the patch's data as the wire protocol defines it
        /// (``/NapkinWeb/WireProtocol/PatchData``).
        public init(from decoder: any Decoder) throws {
            let data = try WireProtocol.PatchData(from: decoder)
            id = data.id
            html = data.html
        }
    }

    private struct State {
        var queue: [ServerSentEvent] = []
        /// The call of `next` waiting for an event: nil when the stream ends.
        var waiter: Promise<ServerSentEvent?>?
        var finished = false
    }

    /// The status the stream was answered with (`200`, or `204` without a session).
    public let status: Int
    /// Which stream it is, for the message of a wait that expires.
    let name: String
    private let state = Locked(State())
    private let pump = TaskSlot()

    /// Opens the stream again with the client's cookies from the given
    /// last event id, as napkin's client does when told to reconnect
    /// (`true`: after a drain, with the page's path).
    typealias Reopen = @Sendable (UInt64?, Bool) async throws -> (status: Int, body: ResponseBody)

    init(status: Int, body: ResponseBody, name: String = "the event stream", reopen: Reopen? = nil) {
        self.status = status
        self.name = name
        switch body {
        case .stream, .channel, .events:
            break
        case .bytes, .file:
            state.withLock { $0.finished = true }
            return
        }
        let task = Task { [state] in
            var body = body
            var lastEventID: UInt64?
            // Drained, and drained again by the stream opened in its place:
            // no server is left to go to.
            var drainedTwice = false
            // A `reconnect` event (the session's id rotated) ends this
            // stream; the reader goes on with the one opened in its place.
            // So does a `drain` (the server is stopping), which the reader
            // also delivers.
            reading: while true {
                var parser = EventStreamParser()
                do {
                    for try await chunk in body.chunks() {
                        for event in parser.feed(chunk) {
                            if let id = event.id.flatMap({ UInt64($0) }) { lastEventID = id }
                            if event.event == WireProtocol.Event.reconnect, let reopen {
                                guard let again = try? await reopen(lastEventID, false), again.status == 200 else { break reading }
                                body = again.body
                                continue reading
                            }
                            if event.event == WireProtocol.Event.drain, let reopen {
                                Self.deliver(event, to: state)
                                guard !drainedTwice, let again = try? await reopen(lastEventID, true), again.status == 200 else { break reading }
                                drainedTwice = true
                                body = again.body
                                continue reading
                            }
                            drainedTwice = false
                            Self.deliver(event, to: state)
                        }
                    }
                } catch {}
                break
            }
            let waiter = state.withLock { state in
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resolve(nil)
        }
        pump.replace(with: task)
    }

    deinit {
        close()
    }

    private static func deliver(_ event: ServerSentEvent, to state: Locked<State>) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.queue.append(event)
                return nil as Promise<ServerSentEvent?>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resolve(event)
    }

    /// Stops reading; the server sees the client go away.
    public func close() {
        pump.stop()
    }

    /// The next event, waiting at most `timeout` (a failure bound, not a
    /// pause): past it, a ``WaitExpired`` names the stream and the caller's line.
    public func next(timeout: Duration = .seconds(10), fileID: String = #fileID, line: Int = #line) async throws
        -> ServerSentEvent
    {
        guard let event = try await nextEvent(timeout: timeout) else {
            throw WaitExpired(awaited: "an event on \(name)", limit: timeout, fileID: fileID, line: line)
        }
        return event
    }

    /// The next event, or `nil` when `timeout` passed first.
    private func nextEvent(timeout: Duration) async throws -> ServerSentEvent? {
        let waiter = Promise<ServerSentEvent?>()
        let ready: ServerSentEvent?? = state.withLock { state in
            if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
            if state.finished { return .some(nil) }
            state.waiter = waiter
            return nil
        }
        let event: ServerSentEvent?
        if let ready {
            event = ready
        } else if let arrived = await waiter.value(within: timeout) {
            event = arrived
        } else {
            // Out of time or cancelled; unless an event was handed to this
            // call meanwhile, which then goes back to the front of the queue.
            let handedOver = state.withLock { state in
                guard state.waiter !== waiter else {
                    state.waiter = nil
                    return false
                }
                return true
            }
            if handedOver, let event = await waiter.value() {
                state.withLock { $0.queue.insert(event, at: 0) }
            }
            if Task.isCancelled { throw CancellationError() }
            return nil
        }
        guard let event else { throw TestClientError.streamEnded }
        return event
    }

    /// The next patch for which `matches` holds, skipping others. Runs on
    /// the caller's actor, so `matches` may capture the test's own state.
    /// Past `timeout`, a ``WaitExpired`` names the stream, the patches it
    /// skipped and the caller's line.
    nonisolated(nonsending) public func nextPatch(
        timeout: Duration = .seconds(10), where matches: (Patch) -> Bool = { _ in true },
        fileID: String = #fileID, line: Int = #line
    ) async throws -> Patch {
        let deadline = ContinuousClock.now + timeout
        var skipped: [String] = []
        func expired() -> WaitExpired {
            WaitExpired(
                awaited: skipped.isEmpty ? "a patch on \(name)" : "a matching patch on \(name)", limit: timeout,
                detail: skipped.isEmpty ? nil : "skipped patches of \(skipped.joined(separator: ", "))", fileID: fileID, line: line)
        }
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, let event = try await nextEvent(timeout: remaining) else { throw expired() }
            guard event.event == WireProtocol.Event.patch else { continue }
            var patch = try JSONDecoder().decode(Patch.self, from: Data(event.data.utf8))
            patch.eventID = event.id.flatMap { UInt64($0) }
            patch.wireBytes = event.encodedBytes.count
            if matches(patch) { return patch }
            skipped.append(patch.id)
        }
    }
}
