import Foundation
@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

/// A server leaving a cluster: it stops taking connections at once (a proxy
/// in front then connects elsewhere), lets go of idle ones, and finishes
/// the requests it has.
@Suite("Draining", .timeLimit(.minutes(1)))
struct DrainTests {
    /// `/held` waits until `gate` yields; `arrivals` yields as it starts.
    static func gatedRouter() -> (HTTPRouter, AsyncStream<Void>.Continuation, AsyncStream<Void>) {
        var router = HTTPRouter()
        let (gate, opened) = AsyncStream<Void>.makeStream()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let keeper = Locked<AsyncStream<Void>?>(gate)
        router.get("/held") { _ in
            arrived.yield()
            if let gate = keeper.withLock({ $0 }) {
                for await _ in gate { break }
            }
            return .text("finished")
        }
        router.get("/hello") { _ in .text("hello") }
        return (router, opened, arrivals)
    }

    @Test("once the drain starts a new connection is refused, an idle kept-alive one is closed, the request in flight finishes, and a request coming after it on a connection the server has is served")
    func refusesNewConnectionsAndFinishesInFlight() async throws {
        let (router, gate, arrivals) = Self.gatedRouter()
        let server = HTTPServer(configuration: .init(shutdownGracePeriod: .seconds(20)), responder: router)
        try server.start()
        let port = server.port
        let idle = try await offPool { () throws -> TestConnection in
            let connection = try TestConnection(port: port)
            #expect(try connection.request("GET", "/hello").status == 200)
            return connection
        }
        async let inFlight = offPool { try TestConnection(port: port).request("GET", "/held") }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        // A connection the server has, whose request is still on its way
        // (as a proxy's, sent just as the drain starts).
        let arriving = try await offPool { try TestConnection(port: port) }
        try await within(seconds: 10) {
            while server.openConnectionCount < 3 { await Task.yield() }
        }
        let stopping = Task { await server.shutdown() }
        await server.listenerClosed.value()

        // Refused, not left in a backlog: a proxy's connect fails fast.
        let refused = try await offPool { () -> Int32 in
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return result == 0 ? 0 : errno
        }
        #expect(refused == ECONNREFUSED)
        #expect(try await offPool { try idle.readsEOF() }, "an idle kept-alive connection stayed open")

        gate.yield()
        let reply = try await inFlight
        #expect(reply.status == 200)
        #expect(reply.text == "finished")
        #expect(reply.header("Connection")?.lowercased() == "close")
        // No request is live now, but a connection is open: its request,
        // coming after, is served (not forced to 503), and the connection
        // closes after it; then the server is done.
        let late = try await offPool { () throws -> TestConnection.Reply in
            try arriving.send("GET /hello HTTP/1.1\r\nHost: napkin.test\r\n\r\n")
            return try arriving.readReply()
        }
        #expect(late.status == 200)
        #expect(late.header("Connection")?.lowercased() == "close")
        try await within(seconds: 20) { await stopping.value }
    }

    @Test("while the loops are still being quiesced the connection count may touch zero and rise again: the drain waits for the connection that came then")
    func waitsForAConnectionAcceptedAfterTheCountTouchedZero() async throws {
        let core = ServerCore(responder: HTTPRouter(), maxBodySize: 1024, log: { _ in })
        core.stopping.store(true, ordering: .sequentiallyConsistent)
        // A proxy's connection closes after its `Connection: close` answer,
        // and its next one is accepted by a loop not yet quiesced.
        core.connectionOpened()
        core.connectionClosed()
        core.connectionOpened()
        core.endAccepting()
        #expect(core.disconnected.resolved == nil, "the drain would stop waiting while a connection is still open")
        core.connectionClosed()
        #expect(core.disconnected.resolved != nil, "the last connection closed, yet the drain still waits")
    }

    @Test("a probe path is answered ahead of the middleware: no log line, GET and HEAD only")
    func probesSkipTheMiddleware() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.probe("/healthz") { _ in .text("ok") }
        router.get("/hello") { _ in .text("hello") }
        try await withServer(router) { server in
            #expect(try await fetch(server.port, "/healthz").text == "ok")
            let head = try await offPool { try TestConnection(port: server.port).request("HEAD", "/healthz") }
            #expect(head.status == 200)
            #expect(try await fetch(server.port, "/healthz/more").status == 404)
            #expect(try await fetch(server.port, "/healthz?x=1").text == "ok")
            #expect(try await fetch(server.port, "POST", "/healthz").status != 200)
            #expect(try await fetch(server.port, "/hello").text == "hello")
        }
        // Only the requests that were not probes were logged.
        let lines = log.all
        #expect(lines.count == 3, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("GET /healthz ") || $0.hasPrefix("HEAD /healthz ") })
    }
}
