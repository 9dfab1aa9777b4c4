@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

/// Event streams through a real server: heartbeats, Last-Event-ID, and cleanup
/// when the client goes away.
@Suite(.timeLimit(.minutes(1))) struct EventStreamServerTests {
    /// Reads chunks until `count` events (and optionally `comments` heartbeats) have arrived.
    static func readEvents(_ connection: TestConnection, count: Int, comments: Int = 0) throws -> (events: [ServerSentEvent], comments: Int) {
        var parser = EventStreamParser()
        var events: [ServerSentEvent] = []
        while events.count < count || parser.comments < comments {
            guard let chunk = try connection.readChunk() else { break }
            events += parser.feed(chunk)
        }
        return (events, parser.comments)
    }

    @Test func eventsAndHeartbeatsAndLastEventID() async throws {
        var router = HTTPRouter()
        router.get("/events") { request in
            let from = request.headers["Last-Event-ID"] ?? "none"
            let events = AsyncStream<ServerSentEvent> { continuation in
                continuation.yield(ServerSentEvent(event: "hello", data: "after \(from)\nsecond line", id: "7"))
            }
            return .eventStream(events, heartbeat: .milliseconds(30))
        }
        try await withServer(router) { server in
            let (head, result) = try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", "/events", headers: [("Last-Event-ID", "6")])
                let head = try connection.readHead()
                return (head, try Self.readEvents(connection, count: 1, comments: 2))
            }
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
            #expect(head.header("Cache-Control") == "no-cache")
            #expect(result.events == [ServerSentEvent(event: "hello", data: "after 6\nsecond line", id: "7")])
            #expect(result.comments >= 2)
        }
    }

    @Test func departedClientCancelsTheProducer() async throws {
        let (cancellations, cancelled) = AsyncStream<Void>.makeStream()
        // The producer stays subscribed (its continuation is alive): only cancellation can end it.
        let keeper = ContinuationKeeper()
        var router = HTTPRouter()
        router.get("/events") { _ in
            let events = AsyncStream<ServerSentEvent> { continuation in
                continuation.onTermination = { _ in cancelled.yield() }
                continuation.yield(ServerSentEvent(data: "first"))
                keeper.keep(continuation)
            }
            return .eventStream(events, heartbeat: .milliseconds(20))
        }
        try await withServer(router) { server in
            let first = try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", "/events")
                _ = try connection.readHead()
                let events = try Self.readEvents(connection, count: 1).events
                connection.close()
                return events
            }
            #expect(first == [ServerSentEvent(data: "first")])
            // The producer's subscription ends because the server noticed the client left.
            let observed = try await within(seconds: 10) {
                var iterator = cancellations.makeAsyncIterator()
                return await iterator.next() != nil
            }
            #expect(observed)
        }
    }

    @Test func finishedSequenceEndsTheResponse() async throws {
        var router = HTTPRouter()
        router.get("/events") { _ in
            let events = AsyncStream<ServerSentEvent> { continuation in
                continuation.yield(ServerSentEvent(data: "one"))
                continuation.yield(ServerSentEvent(data: "two"))
                continuation.finish()
            }
            return .eventStream(events)
        }
        try await withServer(router) { server in
            let reply = try await fetch(server.port, "/events")
            var parser = EventStreamParser()
            #expect(parser.feed(reply.body) == [ServerSentEvent(data: "one"), ServerSentEvent(data: "two")])
        }
    }

    @Test("an HTTP/1.0 client, sent the stream unchunked through its small block, gets every byte of a large event")
    func unchunkedClientGetsWholeEvents() async throws {
        let large = String(repeating: "0123456789", count: 300)
        var router = HTTPRouter()
        router.get("/events") { _ in
            let events = AsyncStream<ServerSentEvent> { continuation in
                continuation.yield(ServerSentEvent(data: large, id: "1"))
                continuation.yield(ServerSentEvent(data: "after"))
                continuation.finish()
            }
            return .eventStream(events)
        }
        try await withServer(router) { server in
            let reply = try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.send("GET /events HTTP/1.0\r\n\r\n")
                return try connection.readReply()
            }
            #expect(reply.status == 200)
            #expect(reply.header("Transfer-Encoding") == nil)
            var parser = EventStreamParser()
            #expect(parser.feed(reply.body) == [ServerSentEvent(data: large, id: "1"), ServerSentEvent(data: "after")])
            #expect(ResponseWriter.heldBlockSize < large.utf8.count)
        }
    }

    @Test("one frame numbered per stream reaches each whole, chunked and through HTTP/1.0's small block")
    func numberedFramesArriveWhole() async throws {
        let large = String(repeating: "0123456789", count: 300)
        let shared = EventFrame(event: "patch", data: large)
        let streams = Locked<UInt64>(0)
        var router = HTTPRouter()
        router.get("/events") { _ in
            let number = streams.withLock { count -> UInt64 in
                count += 1
                return count
            }
            let frames = Channel<EventFrame>(policy: .backpressure(capacity: 4))
            frames.offer(shared.numbered(number))
            frames.offer(EventFrame(event: nil, data: "after"))
            frames.finish()
            return .eventStream(frames: frames)
        }
        try await withServer(router) { server in
            let chunked = try await fetch(server.port, "/events")
            let unchunked = try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.send("GET /events HTTP/1.0\r\n\r\n")
                return try connection.readReply()
            }
            #expect(chunked.header("Transfer-Encoding") == "chunked")
            #expect(unchunked.header("Transfer-Encoding") == nil)
            var parser = EventStreamParser()
            #expect(parser.feed(chunked.body) == [ServerSentEvent(event: "patch", data: large, id: "1"), ServerSentEvent(data: "after")])
            parser = EventStreamParser()
            #expect(parser.feed(unchunked.body) == [ServerSentEvent(event: "patch", data: large, id: "2"), ServerSentEvent(data: "after")])
        }
    }

    @Test func aStreamOfFramesGetsHeartbeats() async throws {
        let keeper = Locked<[Channel<EventFrame>]>([])
        var router = HTTPRouter()
        router.get("/events") { _ in
            let frames = Channel<EventFrame>(policy: .backpressure(capacity: 4))
            keeper.withLock { $0.append(frames) }
            return .eventStream(frames: frames, heartbeat: .milliseconds(20))
        }
        try await withServer(router) { server in
            let comments = try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", "/events")
                _ = try connection.readHead()
                return try Self.readEvents(connection, count: 0, comments: 2).comments
            }
            #expect(comments >= 2)
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct EventStreamHeadTests {
    @Test func headOnAnEventStreamCancelsTheProducer() async throws {
        let (cancellations, cancelled) = AsyncStream<Void>.makeStream()
        // The producer stays subscribed (its continuation is alive): only cancellation can end it.
        let keeper = ContinuationKeeper()
        var router = HTTPRouter()
        router.get("/events") { _ in
            let events = AsyncStream<ServerSentEvent> { continuation in
                continuation.onTermination = { _ in cancelled.yield() }
                keeper.keep(continuation)
            }
            return .eventStream(events)
        }
        let response = try await router.respond(to: Request(method: .head, target: "/events"))
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        guard case .bytes(let body) = response.body else { Issue.record("HEAD must have no stream"); return }
        #expect(body.isEmpty)
        let observed = try await within(seconds: 10) {
            var iterator = cancellations.makeAsyncIterator()
            return await iterator.next() != nil
        }
        #expect(observed)
    }
}

/// Holds producers' continuations so that their streams never finish on their own.
final class ContinuationKeeper: Sendable {
    private let kept = Locked<[AsyncStream<ServerSentEvent>.Continuation]>([])
    func keep(_ continuation: AsyncStream<ServerSentEvent>.Continuation) { kept.withLock { $0.append(continuation) } }
}
