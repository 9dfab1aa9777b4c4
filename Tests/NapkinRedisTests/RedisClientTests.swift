import Testing
import NapkinRedis

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Redis client", .timeLimit(.minutes(1)))
struct RedisClientTests {
    @Test("commands and their replies: status, bulk bytes, integer, nil, arrays")
    func replies() async throws {
        try await withRedisClient { _, client async throws in
            #expect(try await client.command(["PING"]) == .status("PONG"))
            #expect(try await client.command(["SET", "greeting", "hello"]) == .status("OK"))
            #expect(try await client.command(["GET", "greeting"]) == .bulk("hello".bytes))
            #expect(try await client.command(["GET", "greeting"]).string == "hello")
            #expect(try await client.command(["GET", "missing"]) == .null)
            #expect(try await client.command(["INCRBY", "count", "41"]).integer == 41)
            #expect(try await client.command(["RPUSH", "list", "a", "b"]) == .integer(2))
            #expect(try await client.command(["MGET", "greeting", "missing"]) == .array([.bulk("hello".bytes), .null]))
        }
    }

    @Test("arguments and values are binary-safe")
    func binary() async throws {
        try await withRedisClient { _, client async throws in
            let every = (0...255).map { UInt8($0) }
            let key: [UInt8] = [0, 0xFF, 0x0D, 0x0A, 0x20]
            #expect(try await client.command(["SET".bytes, key, every]) == .status("OK"))
            #expect(try await client.command(["GET".bytes, key]) == .bulk(every))
            #expect(try await client.command(["SET".bytes, "empty".bytes, []]) == .status("OK"))
            #expect(try await client.command(["GET", "empty"]) == .bulk([]))
        }
    }

    @Test("an error reply throws RedisError.server with Redis's message, and the connection stays usable")
    func serverError() async throws {
        try await withRedis { server async throws in
            let client = RedisClient(configuration: RedisConfiguration(port: server.port, connections: 1))
            _ = try await client.command(["SET", "text", "x"])
            await #expect(throws: RedisError.server("WRONGTYPE Operation against a key holding the wrong kind of value")) {
                try await client.command(["LPUSH", "text", "y"])
            }
            await #expect {
                try await client.command(["NOSUCHCOMMAND"])
            } throws: { error in
                guard case .server(let message) = error as? RedisError else { return false }
                return message.hasPrefix("ERR unknown command")
            }
            #expect(try await client.command(["PING"]) == .status("PONG"))
            await client.shutdown()
        }
    }

    @Test("many concurrent commands share the pool and all complete")
    func concurrent() async throws {
        try await withRedisClient { server, client async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<500 {
                    group.addTask { _ = try await client.command(["INCR", "hits"]) }
                }
                try await group.waitForAll()
            }
            #expect(try await client.command(["GET", "hits"]).string == "500")
            // The pool's connections are those that ran INCR or this CLIENT
            // LIST: the start-up probe of the test's server may still be listed.
            let clients = try await client.command(["CLIENT", "LIST"]).string ?? ""
            let pool = clients.split(separator: "\n").filter { $0.contains("cmd=incr") || $0.contains("cmd=client") }
            #expect(pool.count <= 4, "\(clients)")
        }
    }

    @Test("a database in the URL is selected on every connection")
    func database() async throws {
        try await withRedis { server async throws in
            let one = try RedisClient(url: "redis://127.0.0.1:\(server.port)/1")
            let zero = RedisClient(configuration: server.configuration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask { _ = try await one.command(["SET", "key\(index)", "in one"]) }
                }
                try await group.waitForAll()
            }
            #expect(try await one.command(["DBSIZE"]) == .integer(20))
            #expect(try await zero.command(["DBSIZE"]) == .integer(0))
            await one.shutdown()
            await zero.shutdown()
        }
    }

    /// With `childStarted`, a process started while the client is connected
    /// (inheriting every descriptor not marked close-on-exec, as a careless
    /// `posix_spawn` would) must not keep its connection open.
    @Test(
        "after shutdown, commands throw RedisError.shutDown and the connections are closed, even with a child process started while connected",
        arguments: [false, true]
    )
    func shutdown(childStarted: Bool) async throws {
        try await withRedis { server async throws in
            let client = RedisClient(configuration: server.configuration)
            let observer = RedisClient(configuration: RedisConfiguration(port: server.port, connections: 1))
            _ = try await client.command(["PING"])
            // (The test helper's PING socket may still be listed for a moment.)
            try await eventually("both clients are connected") { try await connectedClients(observer) == 2 }
            let child = childStarted ? try spawnInheritingDescriptors(["/bin/sleep", "60"]) : nil
            defer { if let child { kill(child, SIGKILL); waitpid(child, nil, 0) } }
            await client.shutdown()
            await #expect(throws: RedisError.shutDown) { try await client.command(["PING"]) }
            try await eventually("the client's connection is closed") { try await connectedClients(observer) == 1 }
            await observer.shutdown()
        }
    }
}

/// How many clients the server has connected, by `CLIENT LIST`.
func connectedClients(_ client: RedisClient) async throws -> Int {
    let list = try await client.command(["CLIENT", "LIST"]).string ?? ""
    return list.split(separator: "\n").count
}
