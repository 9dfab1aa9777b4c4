import NapkinRedis
import Testing
@testable import RibHouse

@Suite("Rib House launch options", .timeLimit(.minutes(1)))
struct LaunchOptionsTests {
    @Test("a public origin and trusted proxies, from flags or the environment")
    func proxyOptions() throws {
        let options = try LaunchOptions(
            arguments: ["--public-origin", "https://ribhouse.example/", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"],
            environment: [:])
        #expect(options.publicOrigin == "https://ribhouse.example")
        #expect(options.trustedProxies == ["127.0.0.1", "::1"])
        let fromEnvironment = try LaunchOptions(arguments: [], environment: ["PUBLIC_ORIGIN": "http://127.0.0.1:8080"])
        #expect(fromEnvironment.publicOrigin == "http://127.0.0.1:8080")
    }

    @Test("an origin with a path, a query, credentials or another scheme is refused with a clear message",
          arguments: ["ribhouse.example", "ftp://ribhouse.example", "https://ribhouse.example/menu", "https://a@ribhouse.example",
                      "https://ribhouse.example?x=1", ""])
    func badOrigins(origin: String) {
        #expect(throws: LaunchOptions.Invalid.self) { try LaunchOptions(arguments: ["--public-origin", origin], environment: [:]) }
    }

    @Test("--tab-grace takes whole seconds above zero")
    func tabGraceOption() throws {
        #expect(try LaunchOptions(arguments: [], environment: [:]).tabGrace == nil)
        #expect(try LaunchOptions(arguments: ["--tab-grace", "15"], environment: [:]).tabGrace == .seconds(15))
        for bad in ["0", "-1", "1.5", "soon"] {
            #expect(throws: LaunchOptions.Invalid.self) { try LaunchOptions(arguments: ["--tab-grace", bad], environment: [:]) }
        }
    }

    @Test("--drain-timeout takes whole seconds from 1 to 3600 (10 by default)")
    func drainTimeoutOption() throws {
        #expect(try LaunchOptions(arguments: [], environment: [:]).drainTimeout == .seconds(10))
        #expect(try LaunchOptions(arguments: ["--drain-timeout", "30"], environment: [:]).drainTimeout == .seconds(30))
        for bad in ["0", "-1", "1.5", "3601", "soon", "99999999999999999999"] {
            #expect(throws: LaunchOptions.Invalid.self) { try LaunchOptions(arguments: ["--drain-timeout", bad], environment: [:]) }
        }
    }

    @Test("--redis-key and REDIS_KEY take a secret of 16 bytes or more; --redis takes credentials")
    func redisKeyOption() throws {
        #expect(try LaunchOptions(arguments: [], environment: [:]).redisKey == nil)
        let key = "0123456789abcdef"
        #expect(try LaunchOptions(arguments: ["--redis-key", key], environment: [:]).redisKey == Array(key.utf8))
        #expect(try LaunchOptions(arguments: [], environment: ["REDIS_KEY": key]).redisKey == Array(key.utf8))
        #expect(throws: LaunchOptions.Invalid.self) { try LaunchOptions(arguments: ["--redis-key", "short"], environment: [:]) }
        let options = try LaunchOptions(arguments: ["--redis", "redis://napkin:p%40ss@127.0.0.1:6390"], environment: [:])
        #expect(options.redis?.username == "napkin" && options.redis?.password == "p@ss")
    }

    @Test("--redis and REDIS_URL take a redis:// URL; anything else is refused with the reason")
    func redisOption() throws {
        let options = try LaunchOptions(arguments: ["--redis", "redis://127.0.0.1:6390/2"], environment: [:])
        #expect(options.redis == RedisConfiguration(host: "127.0.0.1", port: 6390, database: 2))
        let fromEnvironment = try LaunchOptions(arguments: [], environment: ["REDIS_URL": "redis://10.0.0.5"])
        #expect(fromEnvironment.redis?.port == 6379)
        #expect(try LaunchOptions(arguments: [], environment: [:]).redis == nil)
        for bad in ["http://127.0.0.1", "redis://pw@127.0.0.1", "rediss://127.0.0.1", "redis://127.0.0.1:99999"] {
            #expect(throws: LaunchOptions.Invalid.self) { try LaunchOptions(arguments: ["--redis", bad], environment: [:]) }
        }
    }

    @Test("--metrics-port, --metrics-host, --metrics-token (or METRICS_TOKEN) and --log-format; metrics only when served")
    func metricsAndLogOptions() throws {
        let none = try LaunchOptions(arguments: [], environment: [:])
        #expect(!none.keepsMetrics && none.metricsHost == "127.0.0.1" && !none.jsonLog)
        let port = try LaunchOptions(arguments: ["--metrics-port", "9464", "--log-format", "json"], environment: [:])
        #expect(port.metricsPort == 9464 && port.keepsMetrics && port.jsonLog && port.metricsToken == nil)
        let token = try LaunchOptions(arguments: [], environment: ["METRICS_TOKEN": "sixteen-bytes-or-more"])
        #expect(token.metricsToken == "sixteen-bytes-or-more" && token.keepsMetrics && token.metricsPort == nil)
        for bad in [["--metrics-token", "short"], ["--metrics-port", "70000"], ["--log-format", "xml"], ["--metrics-port"]] {
            #expect(throws: LaunchOptions.Invalid.self) { try LaunchOptions(arguments: bad, environment: [:]) }
        }
    }
}
