import Foundation
@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct HTTPServerTests {
    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("Hello, napkin!") }
        router.get("/slow") { _ in
            try await Task.sleep(for: .milliseconds(5))
            return .text("slow")
        }
        return router
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withServer(Self.router()) { server in
            try await offPool {
                let connection = try TestConnection(port: server.port)
                for i in 0..<20 {
                    let reply = try connection.request("GET", i.isMultiple(of: 2) ? "/hello" : "/slow")
                    #expect(reply.status == 200)
                }
            }
        }
    }

    #if os(Linux) && !NAPKIN_PORTABLE_LOOP
    static let concurrentClients = [256, 512]
    #else
    // The portable loop serves descriptors below FD_SETSIZE (1024) only, and
    // these clients' descriptors are in the server's process.
    static let concurrentClients = [256, 384]
    #endif

    @Test(arguments: concurrentClients)
    func concurrentKeepAliveClientsAllComplete(clients: Int) async throws {
        let configuration = ServerConfiguration(connectionLimit: 2048, perIPConnectionLimit: 0)
        try await withServer(Self.router(), configuration: configuration) { server in
            let completed = try await offPool {
                let connections = try (0..<clients).map { _ in try TestConnection(port: server.port) }
                var done = 0
                for round in 0..<2 {
                    // Every request is sent before any reply is read, so all sockets are ready at once.
                    for (i, connection) in connections.enumerated() {
                        try connection.sendRequest("GET", (i + round).isMultiple(of: 2) ? "/hello" : "/slow")
                    }
                    for connection in connections {
                        let reply = try connection.readReply()
                        if reply.status == 200 { done += 1 }
                    }
                }
                return done
            }
            #expect(completed == clients * 2)
        }
    }

    @Test func portZeroBindsAnEphemeralPortAndTakenPortThrows() async throws {
        try await withServer(Self.router()) { server in
            #expect(server.port > 0)
            let second = HTTPServer(configuration: .init(port: server.port), responder: Self.router())
            #expect(throws: HTTPServerError.self) { try second.start() }
            let bad = HTTPServer(configuration: .init(host: "not-an-address"), responder: Self.router())
            #expect(throws: HTTPServerError.self) { try bad.start() }
        }
    }

    @Test func shutdownFinishesInFlightRequestsAndEndsStreams() async throws {
        let (gateStream, gate) = AsyncStream<Void>.makeStream()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        var router = HTTPRouter()
        router.get("/wait") { _ in
            arrived.yield()
            for await _ in gateStream { break }
            return .text("finished")
        }
        let keeper = ContinuationKeeper()
        router.get("/events") { _ in
            arrived.yield()
            // The producer never finishes on its own: only shutdown can end this stream.
            return .eventStream(AsyncStream<ServerSentEvent> { continuation in
                continuation.yield(ServerSentEvent(data: "hi"))
                keeper.keep(continuation)
            })
        }
        let server = HTTPServer(configuration: .init(shutdownGracePeriod: .seconds(20)), responder: router)
        try server.start()
        let port = server.port
        async let slowReply = offPool { try TestConnection(port: port).request("GET", "/wait") }
        async let streamEnded = offPool { () throws -> Bool in
            let connection = try TestConnection(port: port)
            try connection.sendRequest("GET", "/events")
            _ = try connection.readHead()
            while try connection.readChunk() != nil {}
            return true
        }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        let stopping = Task { await server.shutdown() }
        // The slow handler is still running while shutdown waits for it.
        gate.yield()
        try await within(seconds: 20) { await stopping.value }
        let reply = try await slowReply
        #expect(reply.status == 200)
        #expect(reply.text == "finished")
        #expect(try await streamEnded)
        #expect(throws: (any Error).self) { _ = try TestConnection(port: port, timeoutSeconds: 2).request("GET", "/hello") }
    }

    @Test func shutdownAfterGraceAnswers503AndReturns() async throws {
        var router = HTTPRouter()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        router.get("/forever") { _ in
            arrived.yield()
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            return .text("never")
        }
        let server = HTTPServer(configuration: .init(shutdownGracePeriod: .milliseconds(100)), responder: router)
        try server.start()
        let port = server.port
        async let reply = offPool { try TestConnection(port: port).request("GET", "/forever") }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        try await within(seconds: 10) { await server.shutdown() }
        #expect(try await reply.status == 503)
    }
}

@Suite(.timeLimit(.minutes(1))) struct SignalTests {
    @Test func sigtermShutsTheServerDownAndReturns() async throws {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hi") }
        let server = HTTPServer(responder: router)
        let (readiness, ready) = AsyncStream<Void>.makeStream()
        let running = Task { try await server.runUntilSignalled(ready: { ready.yield() }) }
        var iterator = readiness.makeAsyncIterator()
        _ = await iterator.next()
        let port = server.port
        #expect(try await fetch(port, "/hello").text == "hi")
        kill(getpid(), SIGTERM)
        try await within(seconds: 20) { try await running.value }
        #expect(throws: (any Error).self) { _ = try TestConnection(port: port, timeoutSeconds: 2).request("GET", "/hello") }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ImmediateServerTests {
    @Test func anImmediateRouteIsAnsweredOnTheServerThreadWithNoTask() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.get("/now") { _ in
            // No task at all: the server called the handler from its own thread.
            let inTask = withUnsafeCurrentTask { $0 != nil }
            return .text(inTask ? "task" : "thread")
        }
        try await withServer(router) { server in
            let reply = try await fetch(server.port, "/now")
            #expect(reply.status == 200)
            #expect(reply.text == "thread")
            let head = try await fetch(server.port, "HEAD", "/now")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(reply.body.count))
        }
        #expect(log.all.count == 2)
        #expect(log.all.first?.hasPrefix("GET /now 200 ") == true)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ResponseCacheTests {
    /// One body storage, answered with other headers and statuses: each reply
    /// carries its own, byte for byte, and a new array is a new body.
    @Test func aRepeatedBodyIsSentWithItsOwnStatusAndHeaders() async throws {
        let shared: [UInt8] = Array("the same bytes".utf8)
        let current = Locked<[UInt8]>(Array("first".utf8))
        var router = HTTPRouter()
        router.get("/same/:tag") { request in
            let tag = request.parameters["tag"] ?? ""
            var response = Response(status: tag == "teapot" ? HTTPStatus(code: 418, reason: "I'm a teapot") : .ok, body: .bytes(shared))
            response.headers["X-Tag"] = tag
            return response
        }
        router.get("/current") { _ in Response(body: .bytes(current.withLock { $0 })) }
        try await withServer(router) { server in
            for tag in ["a", "b", "a", "caf\u{e9}", "cafe\u{301}", "teapot", "a"] {
                let reply = try await fetch(server.port, "/same/\(tag)")
                #expect(reply.text == "the same bytes")
                #expect(reply.status == (tag == "teapot" ? 418 : 200))
                // The header's own bytes, not a canonically equivalent spelling sent before.
                #expect(reply.header("X-Tag").map { Array($0.utf8) } == Array(tag.utf8))
            }
            #expect(try await fetch(server.port, "/current").text == "first")
            #expect(try await fetch(server.port, "/current").text == "first")
            current.withLock { $0 = Array("second".utf8) }
            #expect(try await fetch(server.port, "/current").text == "second")
            let head = try await fetch(server.port, "HEAD", "/current")
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == "6")
        }
    }

    /// A body answered with each request's own id is never found again: it
    /// is sent without being kept, and takes no kept answer's place.
    @Test func anAnswerWithItsRequestsIDIsNotKept() async throws {
        let shared: [UInt8] = Array("the same bytes".utf8)
        var router = HTTPRouter()
        router.use(AccessLog(sink: { _ in }, requestIDs: .made))
        router.get("/same") { _ in Response(body: .bytes(shared)) }
        router.fastPath { request in
            guard request.path == "/file" else { return nil }
            var response = Response(body: .bytes(shared))
            response.isStaticFile = true
            return response
        }
        try await withServer(router) { server in
            var ids: Set<String> = []
            for _ in 0..<3 {
                let reply = try await fetch(server.port, "/same")
                #expect(reply.text == "the same bytes")
                ids.insert(try #require(reply.header(RequestIDs.header)))
            }
            #expect(ids.count == 3)
            #expect(server.keptResponseCount == 0)
            for _ in 0..<2 {
                let reply = try await fetch(server.port, "/file")
                #expect(reply.text == "the same bytes")
                #expect(reply.header(RequestIDs.header) == nil)
            }
            #expect(server.keptResponseCount == 1)
        }
    }
}

/// Answers `/main/...` with main-actor work, and every other path with a
/// task answering "chain".
private struct MainActorPages: HTTPResponder {
    struct Broken: Error {}

    func answer(_ request: Request) -> Answer {
        switch request.path {
        case "/main/page":
            return .mainActor {
                // One task of its own, not a handler's task preferring its loop.
                let preference = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
                return .text(preference == nil ? "main actor" : "main actor, loop preferred")
            }
        case "/main/broken": return .mainActor { throw Broken() }
        default: return .task { .text("chain") }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct MainActorServerTests {
    @Test func mainActorWorkIsRunAndSentByItself() async throws {
        let log = LogSink()
        try await withServer(MainActorPages(), log: log) { server in
            let page = try await fetch(server.port, "/main/page")
            #expect(page.status == 200)
            #expect(page.text == "main actor")
            // An error is mapped as a handler's is: a bare 500, the detail logged.
            let broken = try await fetch(server.port, "/main/broken")
            #expect(broken.status == 500)
            #expect(broken.text == "Internal Server Error")
            #expect(try await fetch(server.port, "/other").text == "chain")
            // Kept alive: many on one connection, each answered in turn.
            let replies = try await offPool {
                let connection = try TestConnection(port: server.port)
                return try (0..<20).map { _ in try connection.request("GET", "/main/page") }
            }
            #expect(replies.allSatisfy { $0.text == "main actor" })
        }
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("GET /main/broken") == true)
    }

    /// A main-actor route held until `gate` yields, announcing each arrival.
    private static func gatedRouter() -> (HTTPRouter, gate: AsyncStream<Void>.Continuation, arrivals: AsyncStream<Void>) {
        let (gateStream, gate) = AsyncStream<Void>.makeStream()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        var router = HTTPRouter()
        router.use(ErrorMiddleware())
        router.onMainActor(.get, "/held") { _ in
            arrived.yield()
            for await _ in gateStream { break }
            return .text("released")
        }
        router.get("/hello") { _ in .text("hello") }
        return (router, gate, arrivals)
    }

    @Test func shutdownWaitsForMainActorWorkAndSendsItsAnswer() async throws {
        let (router, gate, arrivals) = Self.gatedRouter()
        let server = HTTPServer(configuration: .init(shutdownGracePeriod: .seconds(20)), responder: router)
        try server.start()
        let port = server.port
        async let reply = offPool { try TestConnection(port: port).request("GET", "/held") }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        let stopping = Task { await server.shutdown() }
        gate.yield()
        try await within(seconds: 20) { await stopping.value }
        #expect(try await reply.status == 200)
        #expect(try await reply.text == "released")
    }

    @Test func aClientThatLeavesDuringMainActorWorkCostsNothingAfter() async throws {
        let (router, gate, arrivals) = Self.gatedRouter()
        let server = HTTPServer(configuration: .init(shutdownGracePeriod: .seconds(20)), responder: router)
        try server.start()
        let port = server.port
        try await offPool {
            let connection = try TestConnection(port: port)
            try connection.sendRequest("GET", "/held")
            return connection
        }.close()
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        // The answer comes to a connection that is gone (or going): dropped.
        gate.yield()
        #expect(try await fetch(port, "/hello").text == "hello")
        // Nothing is left waiting: shutdown does not wait out its grace period.
        try await within(seconds: 10) { await server.shutdown() }
    }
}
