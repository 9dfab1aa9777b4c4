import Foundation
import Testing
@testable import NapkinHTTP

/// A request head has a deadline that trickling bytes do not extend, and
/// connections waiting for one cannot fill the server.
@Suite("Request head deadline", .timeLimit(.minutes(1)))
struct HeadDeadlineTests {
    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hi") }
        return router
    }

    @Test("a kept-alive connection may idle as long as any, but trickling its next head does not keep it past that")
    func keptAliveTrickleIsCutOff() async throws {
        let configuration = ServerConfiguration(connectionTimeout: .seconds(2), requestHeadTimeout: .seconds(1))
        try await withServer(Self.router(), configuration: configuration) { server in
            let sent = try await offPool { () throws -> Int? in
                let connection = try TestConnection(port: server.port, timeoutSeconds: 5)
                #expect(try connection.request("GET", "/hello").status == 200)
                return Self.trickle(connection, bytes: 60)
            }
            // Ten bytes a second: past the 1 s head deadline (the idle time
            // a proxy's pooled connection gets), cut off near 2 s.
            let cutOff = try #require(sent)
            #expect(cutOff > 12)
            #expect(cutOff < 40)
        }
    }

    /// Sends a head a byte every 100 ms; how many bytes went out before the
    /// server closed the connection (nil: it never did).
    static func trickle(_ connection: TestConnection, bytes: Int) -> Int? {
        let head = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: bytes)
        for (index, byte) in head.enumerated() {
            guard (try? connection.send([byte])) != nil else { return index }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return (try? connection.readsEOF()) == true ? head.count : nil
    }

    @Test("a head trickled a byte at a time is cut off at the deadline, although the idle timeout never passes")
    func trickledHeadIsCutOff() async throws {
        let configuration = ServerConfiguration(connectionTimeout: .seconds(30), requestHeadTimeout: .seconds(1))
        try await withServer(Self.router(), configuration: configuration) { server in
            let sent = try await offPool {
                let connection = try TestConnection(port: server.port, timeoutSeconds: 5)
                return Self.trickle(connection, bytes: 60)
            }
            // About ten bytes a second: cut off after 1 s, long before the 10 s the whole head takes.
            let cutOff = try #require(sent)
            #expect(cutOff < 40)
        }
    }

    @Test("connections waiting for a first head fill at most a quarter of the server: the longest-waiting make room")
    func waitingHeadsAreCapped() async throws {
        let configuration = ServerConfiguration(connectionLimit: 16, perIPConnectionLimit: 0, requestHeadTimeout: .seconds(30))
        try await withServer(Self.router(), configuration: configuration) { server in
            let port = server.port
            let waiting = try await offPool {
                try (0..<8).map { _ in
                    let connection = try TestConnection(port: port, timeoutSeconds: 5)
                    try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
                    return connection
                }
            }
            // The cap is 4: four are closed (those that began waiting first,
            // which the server's threads may order differently from the
            // client), and no more.
            try await HostileClientTests.eventually { waiting.filter { $0.isClosedNow() }.count >= 4 }
            #expect(waiting.filter { $0.isClosedNow() }.count == 4)
            let status = try await offPool { try TestConnection(port: port, timeoutSeconds: 5).request("GET", "/hello").status }
            #expect(status == 200)
        }
    }
}
