import Testing
@testable import NapkinHTTP

/// Request heads napkin refuses although libmicrohttpd would serve them,
/// and how the server's own answers look, on a real socket.
@Suite("Request head checks", .timeLimit(.minutes(1)))
struct RequestHeadCheckTests {
    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.use(Stamp())
        router.get("/hello") { _ in .text("hi") }
        router.post("/upload") { request in .text("got \(request.body.count)") }
        return router
    }

    /// Sends `raw` on a fresh connection; the first reply, and whether the
    /// server then closed the connection without a second one.
    static func exchange(_ port: Int, _ raw: String) async throws -> (TestConnection.Reply, closed: Bool) {
        try await offPool {
            let connection = try TestConnection(port: port, timeoutSeconds: 5)
            try connection.send(raw)
            let reply = try connection.readReply()
            return (reply, try connection.readsEOF())
        }
    }

    static func expectRefused(_ reply: TestConnection.Reply, _ status: Int, closed: Bool) {
        #expect(reply.status == status)
        #expect(reply.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(reply.header("X-Stamp") == "1")
        #expect(closed)
    }

    @Test("Content-Length with Transfer-Encoding is 400 and closes: the pipelined request behind it is not served")
    func lengthAndChunked() async throws {
        try await withServer(Self.router()) { server in
            let (reply, closed) = try await Self.exchange(server.port,
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            Self.expectRefused(reply, 400, closed: closed)
        }
    }

    @Test("a transfer coding other than chunked is 501 at once")
    func unknownCoding() async throws {
        try await withServer(Self.router()) { server in
            let (reply, closed) = try await Self.exchange(server.port,
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc")
            Self.expectRefused(reply, 501, closed: closed)
            let chunked = try await Self.exchange(server.port,
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
            #expect(chunked.0.status == 200)
            #expect(chunked.0.text == "got 3")
        }
    }

    @Test("HTTP/1.1 without Host, or with two, is 400; HTTP/1.0 without one is served")
    func host() async throws {
        try await withServer(Self.router()) { server in
            let missing = try await Self.exchange(server.port, "GET /hello HTTP/1.1\r\n\r\n")
            Self.expectRefused(missing.0, 400, closed: missing.closed)
            let twice = try await Self.exchange(server.port, "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            Self.expectRefused(twice.0, 400, closed: twice.closed)
            let old = try await Self.exchange(server.port, "GET /hello HTTP/1.0\r\n\r\n")
            #expect(old.0.status == 200)
        }
    }

    /// A responder that runs its route for every request, the server's
    /// refusals too, and counts the runs.
    struct Careless: HTTPResponder {
        let runs: LogSink
        func answer(_ request: Request) -> Answer {
            .task {
                runs.write(request.path)
                return .text("ran")
            }
        }
    }

    @Test("a responder that ignores the server's answer gets it sent bare, and its route never runs for a refused request")
    func refusedRunsNoRoute() async throws {
        let runs = LogSink()
        try await withServer(Careless(runs: runs), configuration: ServerConfiguration(maxRequestBodySize: 100)) { server in
            let (reply, closed) = try await Self.exchange(server.port,
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            #expect(reply.status == 413)
            #expect(closed)
            let served = try await Self.exchange(server.port, "GET /fine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(served.0.text == "ran")
        }
        #expect(runs.all == ["/fine"])
    }

    @Test("a body past the limit is 413 with the responder's headers and a Content-Type")
    func tooLarge() async throws {
        let configuration = ServerConfiguration(maxRequestBodySize: 100)
        try await withServer(Self.router(), configuration: configuration) { server in
            let (reply, closed) = try await Self.exchange(server.port,
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            Self.expectRefused(reply, 413, closed: closed)
        }
    }

    @Test("heads up to where libmicrohttpd gives up are served or answered 431, never dropped", arguments: [5_000, 6_500, 7_500, 7_900, 7_950, 8_000, 8_050])
    func longHeads(size: Int) async throws {
        try await withServer(Self.router()) { server in
            let start = "GET /hello HTTP/1.1\r\nHost: x\r\nX-Pad: "
            let raw = start + String(repeating: "a", count: size - start.utf8.count - 4) + "\r\n\r\n"
            let reply = try await offPool {
                let connection = try TestConnection(port: server.port, timeoutSeconds: 5)
                try connection.send(raw)
                return try connection.readReply()
            }
            if size <= 6_000 {
                #expect(reply.status == 200)
            } else {
                Self.expectRefused(reply, 431, closed: true)
            }
        }
    }
}
