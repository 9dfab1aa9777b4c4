import Testing
@testable import NapkinHTTP

/// The protective limits of ``ServerConfiguration`` hold on a real socket.
@Suite(.timeLimit(.minutes(1))) struct ServerLimitsTests {
    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hi") }
        return router
    }

    @Test func perIPConnectionLimitRefusesTheExtraConnection() async throws {
        let configuration = ServerConfiguration(perIPConnectionLimit: 2)
        try await withServer(Self.router(), configuration: configuration) { server in
            let (first, second, third) = try await offPool { () throws -> (Int, Int, Bool) in
                let a = try TestConnection(port: server.port)
                let b = try TestConnection(port: server.port)
                let statusA = try a.request("GET", "/hello").status
                let statusB = try b.request("GET", "/hello").status
                let c = try TestConnection(port: server.port, timeoutSeconds: 5)
                // The server hangs up on the third; sending may already fail.
                try? c.sendRequest("GET", "/hello")
                return (statusA, statusB, try c.hungUpWithoutReply())
            }
            #expect(first == 200)
            #expect(second == 200)
            #expect(third)
        }
    }

    @Test func idleConnectionIsClosedAfterTheTimeout() async throws {
        let configuration = ServerConfiguration(connectionTimeout: .seconds(1))
        try await withServer(Self.router(), configuration: configuration) { server in
            let closed = try await offPool {
                let connection = try TestConnection(port: server.port)
                #expect(try connection.request("GET", "/hello").status == 200)
                // Say nothing more: the server must hang up on its own.
                return try connection.readsEOF()
            }
            #expect(closed)
        }
    }
}
