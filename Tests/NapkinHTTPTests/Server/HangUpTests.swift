import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

/// A client that leaves an event stream while its body sleeps (its channel
/// empty, its connection suspended) ends the stream at once, not at the
/// next heartbeat: every stream here has a heartbeat of a minute, unless
/// the test needs one to see the stream still served. A half-close counts
/// as leaving.
@Suite("Hang-up", .timeLimit(.minutes(1)))
struct HangUpTests {
    /// Event streams the tests open, each sent one event, and when each ends.
    final class Streams: Sendable {
        private let expected: Int
        private let heartbeat: Duration
        private let channels = Locked<[Channel<[UInt8]>]>([])
        private let ended = Locked(0)
        /// When the last of the expected streams ended.
        let allEnded = Promise<ContinuousClock.Instant>()

        init(expecting expected: Int, heartbeat: Duration = .seconds(60)) {
            self.expected = expected
            self.heartbeat = heartbeat
        }

        var endedCount: Int { ended.withLock { $0 } }
        var openChannels: [Channel<[UInt8]>] { channels.withLock { $0.filter { !$0.isTerminated } } }

        func router() -> HTTPRouter {
            var router = HTTPRouter()
            router.get("/events") { [self] _ in
                let channel = Channel<[UInt8]>(policy: .backpressure(capacity: 4))
                channel.onTermination { [self] in
                    let count = ended.withLock { count in
                        count += 1
                        return count
                    }
                    if count == expected { allEnded.resolve(.now) }
                }
                channels.withLock { $0.append(channel) }
                channel.offer(ServerSentEvent(data: "hello").encodedBytes)
                return .eventStream(channel: channel, heartbeat: heartbeat)
            }
            return router
        }

        /// Runs `leave` (clients leaving) and expects the last expected
        /// stream to end within a second of it; fails the test if they have
        /// not all ended within ten seconds.
        func expectAllEndWithinASecond(after leave: () -> Void) async throws {
            let start = ContinuousClock.now
            leave()
            guard let end = await allEnded.value(within: .seconds(10)) else {
                throw TestConnection.Failure(description: "\(endedCount) of \(expected) streams ended within 10 s")
            }
            #expect(end - start < .seconds(1))
        }
    }

    /// Opens `count` event streams and reads each one's first event: every
    /// body then sleeps on its empty channel.
    static func open(_ count: Int, port: Int) async throws -> [TestConnection] {
        try await offPool {
            try (0..<count).map { _ in
                let connection = try TestConnection(port: port)
                try connection.sendRequest("GET", "/events")
                let head = try connection.readHead()
                guard head.status == 200, let event = try connection.readChunk(),
                      String(decoding: event, as: UTF8.self).contains("data: hello")
                else { throw TestConnection.Failure(description: "no event stream") }
                return connection
            }
        }
    }

    @Test("a client that closes its connection ends the stream within a second; the connection and the stream are uncounted")
    func closedConnectionEndsTheStream() async throws {
        let streams = Streams(expecting: 1)
        try await withServer(streams.router()) { server in
            let clients = try await Self.open(1, port: server.port)
            #expect(server.openConnectionCount == 1)
            #expect(server.streamedBodyCount == 1)
            try await streams.expectAllEndWithinASecond { clients[0].close() }
            try await HostileClientTests.eventually { server.openConnectionCount == 0 }
            // The request completed before its connection closed.
            #expect(server.streamedBodyCount == 0)
        }
    }

    @Test("a client that half-closes (shuts down its sending side) has left: its stream ends within a second")
    func halfCloseEndsTheStream() async throws {
        let streams = Streams(expecting: 1)
        try await withServer(streams.router()) { server in
            let clients = try await Self.open(1, port: server.port)
            try await streams.expectAllEndWithinASecond { clients[0].halfClose() }
            let closed = try await offPool { try clients[0].readsEOF() }
            #expect(closed)
        }
    }

    @Test("two hundred streams closed at once all end within a second; the ones left open are not ended")
    func manyStreamsClosedAtOnce() async throws {
        let streams = Streams(expecting: 200)
        try await withServer(streams.router()) { server in
            let clients = try await Self.open(210, port: server.port)
            try await streams.expectAllEndWithinASecond { for client in clients[..<200] { client.close() } }
            #expect(streams.endedCount == 200)
            // The ten still open are served: each gets an event offered now.
            let open = streams.openChannels
            #expect(open.count == 10)
            for channel in open { channel.offer(ServerSentEvent(data: "still here").encodedBytes) }
            let events = try await offPool {
                try clients[200...].map { try $0.readChunk().map { String(decoding: $0, as: UTF8.self) } ?? "" }
            }
            #expect(events.allSatisfy { $0.contains("data: still here") })
            try await HostileClientTests.eventually { server.openConnectionCount == 10 }
        }
    }

    @Test("a client that sends bytes on an open stream is still served by heartbeats, without making its loop spin")
    func bytesFromTheClientNeitherSpinNorEnd() async throws {
        let streams = Streams(expecting: 1, heartbeat: .milliseconds(100))
        try await withServer(streams.router()) { server in
            let clients = try await Self.open(1, port: server.port)
            let turnsBefore = server.loops.reduce(0) { $0 + $1.turns.load(ordering: .relaxed) }
            let heartbeats = try await offPool { () throws -> [String] in
                try clients[0].send("not part of any request\r\n")
                return try (0..<3).map { _ in try clients[0].readChunk().map { String(decoding: $0, as: UTF8.self) } ?? "" }
            }
            let turns = server.loops.reduce(0) { $0 + $1.turns.load(ordering: .relaxed) } - turnsBefore
            #expect(heartbeats.allSatisfy { $0.hasPrefix(":") })
            #expect(streams.endedCount == 0)
            // Three heartbeats take a few turns each; a loop woken by the
            // unread bytes would turn thousands of times meanwhile.
            #expect(turns < 100, "\(turns) loop turns in three heartbeats")
        }
    }

    /// Where the loop can see a half-close behind unread bytes (Linux; the
    /// portable loop elsewhere stops watching a client that sent bytes, and
    /// leaves it to the heartbeat).
    @Test("a client that sends bytes, then closes, ends its stream within a second",
          .enabled(if: ServerLoop.backend == .epoll || napkin_poll_rdhup() != 0))
    func bytesThenCloseEndsTheStream() async throws {
        let streams = Streams(expecting: 1)
        try await withServer(streams.router()) { server in
            let clients = try await Self.open(1, port: server.port)
            try await offPool { try clients[0].send("not part of any request\r\n") }
            // Not ended by the bytes: a stream's first event still arrives.
            #expect(streams.endedCount == 0)
            streams.openChannels.first?.offer(ServerSentEvent(data: "after").encodedBytes)
            let event = try await offPool { try clients[0].readChunk().map { String(decoding: $0, as: UTF8.self) } ?? "" }
            #expect(event.contains("data: after"))
            try await streams.expectAllEndWithinASecond { clients[0].close() }
        }
    }

    /// A client gone without a word (its network cut) acknowledges nothing:
    /// the server's socket of an event stream gives up on it after one
    /// heartbeat's time (Linux's `TCP_USER_TIMEOUT`), so it is found within
    /// two. Cutting a network in a test needs privileges, so this reads the
    /// limit off the server's socket, found by the client's port.
    @Test("an event stream's socket gives up on a silent client after a heartbeat; a kept-alive connection gets the default back",
          .enabled(if: ServerLoop.backend == .epoll))
    func silentClientIsGivenUpAfterAHeartbeat() async throws {
        let streams = Streams(expecting: 1, heartbeat: .milliseconds(2500))
        try await withServer(streams.router()) { server in
            let clients = try await Self.open(1, port: server.port)
            let serverSocket = try #require(Self.serverSocket(of: clients[0], port: server.port))
            try await HostileClientTests.eventually { Self.unacknowledgedLimit(serverSocket) == 2500 }
            streams.openChannels.first?.finish()
            try await HostileClientTests.eventually { Self.unacknowledgedLimit(serverSocket) == 0 }
        }
    }

    /// The server's socket (in this process) whose peer is `client`.
    static func serverSocket(of client: TestConnection, port: Int) -> Int32? {
        func portOf(_ fd: Int32, peer: Bool) -> Int? {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let found = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
            }
            guard found == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
            return Int(UInt16(bigEndian: address.sin_port))
        }
        guard let clientPort = portOf(client.fd, peer: false) else { return nil }
        return (0..<Int32(4096)).first { fd in
            fd != client.fd && fcntl(fd, F_GETFD) >= 0 && portOf(fd, peer: false) == port && portOf(fd, peer: true) == clientPort
        }
    }

    /// The socket's `TCP_USER_TIMEOUT` in milliseconds (0: the default).
    static func unacknowledgedLimit(_ fd: Int32) -> UInt32? {
        var value: UInt32 = 0
        var length = socklen_t(MemoryLayout<UInt32>.size)
        // IPPROTO_TCP and TCP_USER_TIMEOUT by number: Glibc does not export
        // the second, and naming the first in this file (which imports
        // CMicroHTTPD) hides it from the module's other files in a clean build.
        guard getsockopt(fd, 6, 18, &value, &length) == 0 else { return nil }
        return value
    }
}
