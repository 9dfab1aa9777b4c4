import NapkinRedis
import Testing
@testable import NapkinServe

@Suite("Serve options", .timeLimit(.minutes(1)))
struct ServeOptionsTests {
    @Test("a public origin and trusted proxies, from flags or the environment")
    func proxyOptions() throws {
        let options = try ServeOptions(
            arguments: ["--public-origin", "https://example.com/", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"],
            environment: [:])
        #expect(options.publicOrigin == "https://example.com")
        #expect(options.trustedProxies == ["127.0.0.1", "::1"])
        let fromEnvironment = try ServeOptions(arguments: [], environment: ["PUBLIC_ORIGIN": "http://127.0.0.1:8080"])
        #expect(fromEnvironment.publicOrigin == "http://127.0.0.1:8080")
    }

    @Test("an origin with a path, a query, credentials or another scheme is refused with a clear message",
          arguments: ["example.com", "ftp://example.com", "https://example.com/menu", "https://a@example.com",
                      "https://example.com?x=1", ""])
    func badOrigins(origin: String) {
        #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: ["--public-origin", origin], environment: [:]) }
    }

    @Test("--tab-grace takes whole seconds above zero")
    func tabGraceOption() throws {
        #expect(try ServeOptions(arguments: [], environment: [:]).tabGrace == nil)
        #expect(try ServeOptions(arguments: ["--tab-grace", "15"], environment: [:]).tabGrace == .seconds(15))
        for bad in ["0", "-1", "1.5", "soon"] {
            #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: ["--tab-grace", bad], environment: [:]) }
        }
    }

    @Test("--drain-timeout takes whole seconds from 1 to 3600 (10 by default)")
    func drainTimeoutOption() throws {
        #expect(try ServeOptions(arguments: [], environment: [:]).drainTimeout == .seconds(10))
        #expect(try ServeOptions(arguments: ["--drain-timeout", "30"], environment: [:]).drainTimeout == .seconds(30))
        for bad in ["0", "-1", "1.5", "3601", "soon", "99999999999999999999"] {
            #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: ["--drain-timeout", bad], environment: [:]) }
        }
    }

    @Test("--redis-key and REDIS_KEY take a secret of 16 bytes or more; --redis takes credentials")
    func redisKeyOption() throws {
        #expect(try ServeOptions(arguments: [], environment: [:]).redisKey == nil)
        let key = "0123456789abcdef"
        #expect(try ServeOptions(arguments: ["--redis-key", key], environment: [:]).redisKey == Array(key.utf8))
        #expect(try ServeOptions(arguments: [], environment: ["REDIS_KEY": key]).redisKey == Array(key.utf8))
        #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: ["--redis-key", "short"], environment: [:]) }
        let options = try ServeOptions(arguments: ["--redis", "redis://napkin:p%40ss@127.0.0.1:6390"], environment: [:])
        #expect(options.redis?.username == "napkin" && options.redis?.password == "p@ss")
    }

    @Test("--redis and REDIS_URL take a redis:// URL; anything else is refused with the reason")
    func redisOption() throws {
        let options = try ServeOptions(arguments: ["--redis", "redis://127.0.0.1:6390/2"], environment: [:])
        #expect(options.redis == RedisConfiguration(host: "127.0.0.1", port: 6390, database: 2))
        let fromEnvironment = try ServeOptions(arguments: [], environment: ["REDIS_URL": "redis://10.0.0.5"])
        #expect(fromEnvironment.redis?.port == 6379)
        #expect(try ServeOptions(arguments: [], environment: [:]).redis == nil)
        for bad in ["http://127.0.0.1", "redis://pw@127.0.0.1", "rediss://127.0.0.1", "redis://127.0.0.1:99999"] {
            #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: ["--redis", bad], environment: [:]) }
        }
    }

    @Test("--metrics-port, --metrics-host, --metrics-token (or METRICS_TOKEN) and --log-format; metrics only when served")
    func metricsAndLogOptions() throws {
        let none = try ServeOptions(arguments: [], environment: [:])
        #expect(!none.keepsMetrics && none.metricsHost == "127.0.0.1" && none.logFormat == .text)
        let port = try ServeOptions(arguments: ["--metrics-port", "9464", "--log-format", "json"], environment: [:])
        #expect(port.metricsPort == 9464 && port.keepsMetrics && port.logFormat == .json && port.metricsToken == nil)
        let token = try ServeOptions(arguments: [], environment: ["METRICS_TOKEN": "sixteen-bytes-or-more"])
        #expect(token.metricsToken == "sixteen-bytes-or-more" && token.keepsMetrics && token.metricsPort == nil)
        for bad in [["--metrics-token", "short"], ["--metrics-port", "70000"], ["--log-format", "xml"], ["--metrics-port"]] {
            #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: bad, environment: [:]) }
        }
    }
}

@Suite("Serve options: the app's own flags", .timeLimit(.minutes(1)))
struct ServeAppFlagTests {
    static let interval = ServeFlag("--pit-interval", value: "MS", help: "how often the pit moves")
    static let quiet = ServeFlag("--quiet", value: nil, help: "say less")

    @Test("an app's flag is read beside napkin's, with or without a value, and typed on request")
    func appFlags() throws {
        let options = try ServeOptions(
            arguments: ["--port", "9000", "--pit-interval", "250", "--quiet"], environment: [:], appFlags: [Self.interval, Self.quiet])
        #expect(options.port == 9000)
        #expect(options.value(of: "--pit-interval") == "250")
        #expect(try options.milliseconds("--pit-interval") == .milliseconds(250))
        #expect(options.value(of: "--quiet") == "")
        #expect(try ServeOptions(arguments: [], environment: [:], appFlags: [Self.interval]).milliseconds("--pit-interval") == nil)
    }

    @Test("an app's flag that was not declared, or lacks its value, or has a bad one, is refused with the flag's name")
    func badAppFlags() throws {
        #expect(throws: ServeOptions.Invalid("unknown option --pit-interval")) {
            try ServeOptions(arguments: ["--pit-interval", "250"], environment: [:])
        }
        #expect(throws: ServeOptions.Invalid("--pit-interval needs a value")) {
            try ServeOptions(arguments: ["--pit-interval"], environment: [:], appFlags: [Self.interval])
        }
        for bad in ["0", "-5", "fast", "2.5"] {
            let options = try ServeOptions(arguments: ["--pit-interval", bad], environment: [:], appFlags: [Self.interval])
            #expect(throws: ServeOptions.Invalid("--pit-interval takes milliseconds")) { try options.milliseconds("--pit-interval") }
        }
    }

    @Test("the usage lists napkin's flags and the app's, one a line")
    func usage() throws {
        let usage = ServeCommand("Smokehouse", flags: [Self.interval]).usage
        let lines = usage.split(separator: "\n")
        #expect(lines.first == "usage: Smokehouse [options]")
        #expect(lines.count == ServeFlag.builtIn.count + 2)
        #expect(lines.last?.hasPrefix("  --pit-interval MS") == true && lines.last?.hasSuffix("how often the pit moves") == true)
        #expect(lines.contains { $0.hasPrefix("  --redis URL") })
        #expect(throws: ServeOptions.Invalid("unknown option --bogus")) { try ServeOptions(arguments: ["--bogus"], environment: [:]) }
        #expect(try ServeOptions(arguments: ["-h"], environment: [:]).showHelp)
        // A value as long as the command line is quoted a line of it.
        let long = String(repeating: "a", count: 100_000)
        for arguments in [[long], ["--port", long], ["--public-origin", long]] {
            let error = #expect(throws: ServeOptions.Invalid.self) { try ServeOptions(arguments: arguments, environment: [:]) }
            #expect((error?.description.count ?? .max) <= 161 && error?.description.hasSuffix("a…") == true)
        }
    }
}
