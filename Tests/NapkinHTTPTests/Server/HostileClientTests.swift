@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

/// What a stranger's connection can and cannot do to a live server.
@Suite("Hostile clients", .timeLimit(.minutes(1)))
struct HostileClientTests {
    static func router(log: LogSink? = nil) -> HTTPRouter {
        var router = HTTPRouter()
        if let log { router.use(AccessLog(sink: log.write)) }
        router.get("/hello") { _ in .text("hi") }
        router.post("/upload") { request in .text("got \(request.body.count)") }
        return router
    }

    @Test("a client that half-closes after its request still gets the answer, from a handler that answers at once or later",
          arguments: ["/hello", "/late", "/main"])
    func halfClosedClientIsAnswered(path: String) async throws {
        var router = Self.router()
        router.get("/late") { _ in
            try await Task.sleep(for: .milliseconds(100))
            return .text("late")
        }
        router.onMainActor(.get, "/main") { _ in
            try await Task.sleep(for: .milliseconds(100))
            return .text("main")
        }
        try await withServer(router) { server in
            let reply = try await offPool {
                // The default bound: a main-actor answer waits its turn behind
                // every main-actor test a parallel run starts at once.
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", path)
                connection.halfClose()
                return try connection.readReply()
            }
            #expect(reply.status == 200)
        }
    }

    /// Waits until `condition` holds, checking as the server changes (a
    /// bound on a real signal, not a pause): fails after `seconds`.
    static func eventually(_ seconds: Double = 10, _ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestConnection.Failure(description: "condition not met in \(seconds)s") }
            await Task.yield()
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("slow uploads past the server's body budget are answered 503; abandoned ones give the budget back")
    func bodyBudget() async throws {
        let configuration = ServerConfiguration(maxRequestBodySize: 1 << 20, maxBufferedBodyBytes: 250_000)
        try await withServer(Self.router(), configuration: configuration) { server in
            let port = server.port
            // Two uploads that send half their body, then stall.
            let stalled = try await offPool { () throws -> [TestConnection] in
                try (0..<2).map { _ in
                    let connection = try TestConnection(port: port)
                    try connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200000\r\n\r\n")
                    try connection.send([UInt8](repeating: 0x61, count: 100_000))
                    return connection
                }
            }
            try await Self.eventually { server.bufferedBodyBytes == 200_000 }
            let refused = try await fetch(port, "POST", "/upload", body: [UInt8](repeating: 0x62, count: 100_000))
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(server.bufferedBodyBytes == 200_000)

            for connection in stalled { connection.close() }
            try await Self.eventually { server.bufferedBodyBytes == 0 }
            let accepted = try await fetch(port, "POST", "/upload", body: [UInt8](repeating: 0x62, count: 100_000))
            #expect(accepted.status == 200)
            #expect(accepted.text == "got 100000")
            #expect(server.bufferedBodyBytes == 0)
        }
    }

    @Test("a path with an encoded line break is one escaped log line")
    func logForging() async throws {
        let log = LogSink()
        try await withServer(Self.router(log: log)) { server in
            let reply = try await fetch(server.port, "/x%0aGET%20/admin%20200")
            #expect(reply.status == 404)
            let lines = log.all.filter { !$0.hasPrefix("error:") }
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("GET /x%0aGET%20/admin%20200 404 ") == true)
        }
        #expect(AccessLog.escape("/a\u{1b}[31m\nb\\") == "/a\\x1b[31m\\x0ab\\x5c")
        #expect(AccessLog.escape(String(repeating: "a", count: 5000)).utf8.count < 1100)
    }

    @Test("an overlong URL is answered 414 and oversized headers 431; the server keeps serving")
    func urlAndHeaderLimits() async throws {
        try await withServer(Self.router()) { server in
            let long = try await fetch(server.port, "/" + String(repeating: "a", count: 20_000))
            #expect(long.status == 414)
            let headers = (0..<1000).map { ("X-Header-\($0)", "value") }
            let large = try await fetch(server.port, "/hello", headers: headers)
            #expect(large.status == 431)
            #expect(try await fetch(server.port, "/hello").status == 200)
        }
    }

    @Test("an HTTP date past what the calendar holds is ignored, not a crash")
    func hugeIfModifiedSince() async throws {
        let (root, _) = try StaticFilesTests.makeRoot()
        try await withServer(StaticFilesTests.router(root)) { server in
            for date in ["Sun, 06 Nov 99999999999 08:49:37 GMT", "Sun, 99999999999 Nov 1994 08:49:37 GMT",
                         "Sun, 06 Nov 1994 99999999999:49:37 GMT", "Sun, 06 Nov -99999999999 08:49:37 GMT"] {
                let reply = try await fetch(server.port, "/napkin.js", headers: [("If-Modified-Since", date)])
                #expect(reply.status == 200)
            }
        }
    }
}

/// Every way an event stream's body can end terminates its channel.
@Suite("Event stream exits", .timeLimit(.minutes(1)))
struct EventStreamExitTests {
    /// A route whose channel the test holds, and a signal when it terminates.
    final class Probe: Sendable {
        let channels = Locked<[Channel<[UInt8]>]>([])
        let (terminations, terminated) = AsyncStream<Void>.makeStream()

        func router() -> HTTPRouter {
            var router = HTTPRouter()
            router.get("/events") { [self] _ in
                let channel = Channel<[UInt8]>(policy: .backpressure(capacity: 4))
                channel.onTermination { [self] in terminated.yield() }
                channels.withLock { $0.append(channel) }
                channel.offer(ServerSentEvent(data: "hello").encodedBytes)
                return .eventStream(channel: channel, heartbeat: .milliseconds(20))
            }
            return router
        }

        func waitForTermination() async throws {
            let observed = try await within(seconds: 10) { [terminations] in
                var iterator = terminations.makeAsyncIterator()
                return await iterator.next() != nil
            }
            #expect(observed)
        }
    }

    @Test("HEAD: the channel terminates without a byte sent")
    func head() async throws {
        let probe = Probe()
        try await withServer(probe.router()) { server in
            let reply = try await fetch(server.port, "HEAD", "/events")
            #expect(reply.status == 200)
            try await probe.waitForTermination()
        }
    }

    @Test("client gone: the channel terminates")
    func clientGone() async throws {
        let probe = Probe()
        try await withServer(probe.router()) { server in
            try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", "/events")
                _ = try connection.readHead()
                _ = try connection.readChunk()
                connection.close()
            }
            try await probe.waitForTermination()
        }
    }

    @Test("the app cancels the stream: its sleeping connection wakes and the client gets the end")
    func appCancels() async throws {
        let probe = Probe()
        try await withServer(probe.router()) { server in
            let connection = try await offPool { () throws -> TestConnection in
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", "/events")
                _ = try connection.readHead()
                _ = try connection.readChunk()
                return connection
            }
            probe.channels.withLock { $0.first }?.cancel()
            try await probe.waitForTermination()
            let ended = try await offPool { () throws -> Bool in
                while try connection.readChunk() != nil {}
                return true
            }
            #expect(ended)
        }
    }

    @Test("server shutdown: the client gets what was offered, then the end; the channel terminates")
    func shutdown() async throws {
        let probe = Probe()
        let server = HTTPServer(configuration: .init(), responder: probe.router())
        try server.start()
        let connection = try await offPool { () throws -> TestConnection in
            let connection = try TestConnection(port: server.port)
            try connection.sendRequest("GET", "/events")
            _ = try connection.readHead()
            return connection
        }
        probe.channels.withLock { $0.first }?.offer(ServerSentEvent(data: "bye").encodedBytes)
        await server.shutdown()
        try await probe.waitForTermination()
        let rest = try await offPool { () throws -> String in
            var text = ""
            while let chunk = try connection.readChunk() { text += String(decoding: chunk, as: UTF8.self) }
            return text
        }
        #expect(rest.contains("data: bye"))
    }
}

/// A full server answers at once instead of leaving clients waiting.
@Suite("Connection limit", .timeLimit(.minutes(1)))
struct ConnectionLimitTests {
    @Test("past the connection limit a new connection is answered 503 and closed; a freed slot serves again")
    func fullServerAnswers503() async throws {
        let probe = EventStreamExitTests.Probe()
        var router = probe.router()
        router.get("/hello") { _ in .text("hi") }
        try await withServer(router, configuration: ServerConfiguration(connectionLimit: 3)) { server in
            let port = server.port
            // Busy connections (open event streams): idle ones would be shed.
            let held = try await offPool { () throws -> [TestConnection] in
                try (0..<3).map { _ in
                    let connection = try TestConnection(port: port)
                    try connection.sendRequest("GET", "/events")
                    #expect(try connection.readHead().status == 200)
                    return connection
                }
            }
            let refused = try await fetch(port, "/hello")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.text.contains("full"))

            held[0].close()
            // The server notices the closed connection on its own schedule:
            // ask until a fresh connection is served (bounded).
            try await HostileClientTests.eventually {
                (try? TestConnection(port: port).request("GET", "/hello").status) == 200
            }
            for connection in held { connection.close() }
        }
    }

    @Test("kept-alive connections idling past a quarter of the limit are shed, the longest idle first: a new one is served")
    func idleKeptAliveConnectionsAreShed() async throws {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hi") }
        try await withServer(router, configuration: ServerConfiguration(connectionLimit: 8)) { server in
            let port = server.port
            let idle = try await offPool {
                try (0..<6).map { _ in
                    let connection = try TestConnection(port: port)
                    #expect(try connection.request("GET", "/hello").status == 200)
                    return connection
                }
            }
            // A quarter of 8 may idle: four are closed (those that began
            // idling first, which the server's threads may order differently
            // from the client), and no more.
            try await HostileClientTests.eventually { idle.filter { $0.isClosedNow() }.count >= 4 }
            #expect(idle.filter { $0.isClosedNow() }.count == 4)
            let status = try await offPool { try TestConnection(port: port).request("GET", "/hello").status }
            #expect(status == 200)
            for connection in idle { connection.close() }
        }
    }
}
