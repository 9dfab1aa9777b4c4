import Testing
@testable import NapkinRedis

@Suite("Redis URLs", .timeLimit(.minutes(1)))
struct RedisConfigurationTests {
    @Test("redis://host:port/db, with port 6379 and database 0 by default")
    func accepted() throws {
        let full = try RedisConfiguration(url: "redis://cache.internal:6380/2")
        #expect(full.host == "cache.internal")
        #expect(full.port == 6380)
        #expect(full.database == 2)

        let plain = try RedisConfiguration(url: "redis://127.0.0.1")
        #expect(plain.port == 6379)
        #expect(plain.database == 0)

        #expect(try RedisConfiguration(url: "redis://localhost:7000").port == 7000)
        #expect(try RedisConfiguration(url: "redis://localhost:7000/").database == 0)
        let v6 = try RedisConfiguration(url: "redis://[::1]:6390/1")
        #expect(v6.host == "::1")
        #expect(v6.port == 6390)
        #expect(v6.url == "redis://[::1]:6390/1")
    }

    @Test("the defaults: short connect timeout, bounded commands, a few connections")
    func defaults() throws {
        let configuration = try RedisConfiguration(url: "redis://localhost")
        #expect(configuration.connectTimeout == .milliseconds(250))
        #expect(configuration.commandTimeout == .seconds(2))
        #expect(configuration.connections == 4)
        #expect(configuration.url == "redis://localhost:6379/0")
    }

    @Test(
        "anything else is refused, saying why",
        arguments: [
            ("", "redis://"),
            ("http://localhost:6379", "redis://"),
            ("rediss://localhost:6379", "TLS"),
            ("redis://secret@localhost:6379", "credentials"),
            ("redis://user:@localhost:6379", "password"),
            ("redis://:pa%zzss@localhost:6379", "%"),
            ("redis://:pa%ffss@localhost:6379", "UTF-8"),
            ("redis://localhost:6379/0?timeout=1", "query"),
            ("redis://", "host"),
            ("redis://:6379", "host"),
            ("redis://local host", "host"),
            ("redis://localhost:0", "port"),
            ("redis://localhost:65536", "port"),
            ("redis://localhost:-1", "port"),
            ("redis://localhost:port", "port"),
            ("redis://localhost:", "port"),
            ("redis://localhost:6379/db", "database"),
            ("redis://localhost:6379/1/2", "database"),
            ("redis://localhost:6379/-1", "database"),
            ("redis://[::1:6379", "]"),
            ("redis://[::1]6379", "after the host"),
            ("redis://[zz]:6379", "IPv6"),
        ])
    func refused(url: String, reason: String) {
        #expect {
            _ = try RedisConfiguration(url: url)
        } throws: { error in
            guard case .invalidURL(let why) = error as? RedisError else { return false }
            return why.contains(reason) && "\(error)".hasPrefix("invalid Redis URL: ")
        }
    }

    @Test("credentials: :password for the default user, user:password for an ACL user, percent-decoded; never shown")
    func credentials() throws {
        let plain = try RedisConfiguration(url: "redis://:s3cret@cache.internal:6380/2")
        #expect(plain.username == nil && plain.password == "s3cret")
        #expect(plain.host == "cache.internal" && plain.port == 6380 && plain.database == 2)
        let acl = try RedisConfiguration(url: "redis://napkin%40app:p%3Aw%2Fd%40%25x@[::1]")
        #expect(acl.username == "napkin@app" && acl.password == "p:w/d@%x")
        #expect(acl.host == "::1" && acl.port == 6379)
        #expect(acl.url == "redis://napkin@app@[::1]:6379/0")
        #expect(!plain.url.contains("s3cret"))
        #expect(try RedisConfiguration(url: "redis://localhost").password == nil)
    }

    @Test("durations become whole milliseconds, rounded up")
    func milliseconds() {
        #expect(Duration.milliseconds(250).wholeMilliseconds() == 250)
        #expect(Duration.microseconds(1).wholeMilliseconds() == 1)
        #expect(Duration.seconds(90).wholeMilliseconds() == 90_000)
        #expect(Duration.zero.wholeMilliseconds(atLeast: 1) == 1)
        #expect(Duration.seconds(-5).wholeMilliseconds(atLeast: 1) == 1)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds() == Int64.max)
    }
}
