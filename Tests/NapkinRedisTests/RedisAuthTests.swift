import NapkinRedis
import NapkinStorage
import Testing

@Suite("Redis with a password", .timeLimit(.minutes(1)))
struct RedisAuthTests {
    @Test("a password (requirepass) is sent with AUTH before SELECT, by the client and the bus")
    func requirepass() async throws {
        try await withRedis(password: "p@ss:word") { server async throws in
            var configuration = server.configuration
            configuration.database = 3
            let client = RedisClient(configuration: configuration)
            #expect(try await client.command(["SET", "k", "v"]) == .status("OK"))
            #expect(try await client.command(["CLIENT", "INFO"]).string?.contains(" db=3 ") == true)
            let bus = RedisBus(client: client)
            let stream = await bus.subscribe(to: "news")
            try await bus.publish("hello".bytes, to: "news")
            #expect(try await nextMessage(stream) == "hello".bytes)
            await bus.shutdown()
            await client.shutdown()
        }
    }

    @Test("an ACL user and its password, from a redis:// URL")
    func aclUser() async throws {
        try await withRedis(username: "napkin", password: "pa/ss") { server async throws in
            let client = try RedisClient(url: "redis://napkin:pa%2Fss@127.0.0.1:\(server.port)/1")
            #expect(try await client.command(["ACL", "WHOAMI"]) == .bulk("napkin".bytes))
            await client.shutdown()
        }
    }

    @Test("without the password, or with a wrong one, every command is refused with Redis's reason")
    func refused() async throws {
        try await withRedis(password: "right") { server async throws in
            let none = RedisClient(configuration: RedisConfiguration(host: "127.0.0.1", port: server.port))
            await #expect { _ = try await none.command(["GET", "k"]) } throws: { error in
                guard case .server(let message) = error as? RedisError else { return false }
                return message.hasPrefix("NOAUTH")
            }
            let wrong = RedisClient(configuration: RedisConfiguration(host: "127.0.0.1", port: server.port, password: "wrong"))
            await #expect { _ = try await wrong.command(["GET", "k"]) } throws: { error in
                guard case .server(let message) = error as? RedisError else { return false }
                return message.hasPrefix("WRONGPASS")
            }
            await none.shutdown()
            await wrong.shutdown()
        }
    }
}
