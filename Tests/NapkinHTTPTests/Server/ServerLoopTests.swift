import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

/// napkin's own loop around libmicrohttpd (its epoll set, or the portable loop's `poll`).
@Suite(.timeLimit(.minutes(1))) struct ServerLoopTests {
    /// A handler that holds the loop's thread until the test lets it go.
    final class Gate: Sendable {
        private let entered = DispatchSemaphore(value: 0)
        private let opened = DispatchSemaphore(value: 0)

        func pass() {
            entered.signal()
            opened.wait()
        }

        func waitUntilEntered() { entered.wait() }
        func open() { opened.signal() }
    }

    /// libmicrohttpd's own epoll loop reads at most 128 events a call and, when
    /// it got exactly that many, waits again with the long timeout before
    /// serving them: requests that arrive together 128 at a time sat unanswered
    /// until the next network event.
    @Test(arguments: [127, 128, 129, 256])
    func requestsArrivingTogetherAreAllAnswered(count: Int) async throws {
        let gate = Gate()
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hi") }
        router.get("/busy") { _ in
            gate.pass()
            return .text("done")
        }
        let configuration = ServerConfiguration(workerThreads: 1, perIPConnectionLimit: 0)
        try await withServer(router, configuration: configuration) { server in
            let statuses = try await within(seconds: 30) {
                try await offPool { () throws -> [Int] in
                    let idle = try (0..<count).map { _ in try TestConnection(port: server.port, timeoutSeconds: 10) }
                    for connection in idle { _ = try connection.request("GET", "/hello") }
                    // Hold the loop's thread (handlers start on it), let every
                    // request arrive meanwhile, then let the loop find them all at once.
                    let busy = try TestConnection(port: server.port)
                    try busy.sendRequest("GET", "/busy")
                    gate.waitUntilEntered()
                    for connection in idle { try connection.sendRequest("GET", "/hello") }
                    gate.open()
                    return try [busy.readReply().status] + idle.map { try $0.readReply().status }
                }
            }
            #expect(statuses.count == count + 1)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }

    /// The per-address limit is the server's, not each loop's: connections
    /// spread over two loops still count against one limit, and a closed one
    /// frees its place.
    @Test func perAddressLimitHoldsAcrossLoops() async throws {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hi") }
        let configuration = ServerConfiguration(workerThreads: 2, perIPConnectionLimit: 4)
        try await withServer(router, configuration: configuration) { server in
            let (served, refused, closed, servedAfterClose) = try await offPool { () throws -> ([Int], Bool, Bool, Int) in
                let open = try (0..<4).map { _ in try TestConnection(port: server.port) }
                let served = try open.map { try $0.request("GET", "/hello").status }
                let extra = try TestConnection(port: server.port, timeoutSeconds: 5)
                try? extra.sendRequest("GET", "/hello")
                let refused = try extra.hungUpWithoutReply()
                open[0].close()
                let closed = try open[0].readsEOF()
                // The server uncounts the connection when its loop sees the
                // close, which nothing on the wire announces: try again until it has.
                var status = 0
                for _ in 0..<200 where status != 200 {
                    let next = try TestConnection(port: server.port, timeoutSeconds: 5)
                    status = (try? next.request("GET", "/hello").status) ?? 0
                    if status != 200 { usleep(10_000) }
                }
                return (served, refused, closed, status)
            }
            #expect(served == [200, 200, 200, 200])
            #expect(refused)
            #expect(closed)
            #expect(servedAfterClose == 200)
        }
    }

    // Which loop this build runs, stated in the test's name so that a log
    // shows it: the portable stage builds with NAPKIN_PORTABLE_LOOP and
    // requires the second name among the passed tests.
    #if os(Linux) && !NAPKIN_PORTABLE_LOOP
    @Test func thisBuildRunsTheEpollLoop() async throws {
        #expect(ServerLoop.backend == .epoll)
        #expect(Wakeup.Backend.preferred == .eventfd)
        #expect(try await Self.daemonsKeepEpollSets() == [true, true])
    }
    #else
    @Test func thisBuildRunsThePortablePollLoop() async throws {
        #expect(ServerLoop.backend == .poll)
        #expect(Wakeup.Backend.preferred == .pipe)
        #expect(try await Self.daemonsKeepEpollSets() == [false, false])
    }
    #endif

    /// Whether each daemon of a running server (two loops) keeps an epoll set.
    private static func daemonsKeepEpollSets() async throws -> [Bool] {
        try await withServer(HTTPRouter(), configuration: ServerConfiguration(workerThreads: 2)) { server in
            server.loops.map { napkin_daemon_epoll_fd($0.daemonPointer) >= 0 }
        }
    }
}
