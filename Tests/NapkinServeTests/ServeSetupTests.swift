import NapkinHTTP
import NapkinRedis
import NapkinWeb
import Testing
@testable import NapkinServe

@Suite("Serve setup", .timeLimit(.minutes(1)))
struct ServeSetupTests {
    nonisolated static func setup(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSetup {
        ServeSetup(options: try ServeOptions(arguments: arguments, environment: environment), configuration: NapkinConfiguration())
    }

    @Test("without flags: napkin's defaults, this process alone, no metrics kept")
    func defaults() throws {
        let setup = try Self.setup([])
        let defaults = NapkinConfiguration()
        #expect(setup.configuration.newSessionIdleTimeout == defaults.newSessionIdleTimeout)
        #expect(setup.configuration.tabGracePeriod == defaults.tabGracePeriod)
        #expect(!setup.configuration.secureCookies && setup.configuration.publicOrigin == nil)
        #expect(setup.metrics == nil && setup.configuration.metricsToken == nil)
        #expect(setup.bus is LocalBus && setup.leases is LocalLeases)
        #expect(setup.configuration.sessionRecords is InMemorySessionRecords)
        #expect(setup.redisWarning == nil)
    }

    @Test("timeouts, the origin (cookies for HTTPS only behind https://), proxies, metrics and the log format reach the configuration")
    func optionsApplied() throws {
        let setup = try Self.setup(
            ["--new-session-timeout", "30", "--tab-grace", "5", "--public-origin", "https://example.com", "--trusted-proxy", "10.0.0.1",
             "--metrics-token", "sixteen-bytes-or-more", "--log-format", "json"])
        #expect(setup.configuration.newSessionIdleTimeout == .seconds(30))
        #expect(setup.configuration.tabGracePeriod == .seconds(5))
        #expect(setup.configuration.publicOrigin == "https://example.com" && setup.configuration.secureCookies)
        #expect(setup.configuration.trustedProxies == ["10.0.0.1"])
        #expect(setup.metrics != nil && setup.configuration.metricsToken == "sixteen-bytes-or-more")
        #expect(setup.configuration.logFormat == .json)
        #expect(try !Self.setup(["--public-origin", "http://example.com"]).configuration.secureCookies)
    }

    @Test("with Redis: records, bus and leases in Redis, its counters among the metrics, and a warning when nothing seals the records")
    func redis() async throws {
        let open = try Self.setup(["--redis", "redis://127.0.0.1:1", "--metrics-port", "0"])
        #expect(open.bus is RedisBus && open.leases is RedisLeases && open.configuration.sessionRecords is RedisSessionRecords)
        #expect(open.redisWarning?.contains("can forge sessions") == true)
        #expect(open.metrics?.currentSnapshot().family("napkin_redis_commands_total") != nil)
        await open.shutdown()
        let keyed = try Self.setup(["--redis", "redis://127.0.0.1:1", "--redis-key", "0123456789abcdef"])
        #expect(keyed.redisWarning == nil && keyed.metrics == nil)
        await keyed.shutdown()
        let password = try Self.setup([], environment: ["REDIS_URL": "redis://:secret@127.0.0.1:1"])
        #expect(password.redisWarning == nil)
        await password.shutdown()
    }
}

@Suite("Serve command: the access log", .timeLimit(.minutes(1)))
@MainActor
struct ServeAccessLogTests {
    struct Plain: ServedApp {
        let app = NapkinApp(component: EmptyComponent(), configuration: NapkinConfiguration()) { _ in PlainRouter() }
        var router: HTTPRouter {
            var router = HTTPRouter()
            router.get("/hello") { _ in .text("hello") }
            return router
        }
    }

    final class PlainRouter: LaunchRouter<PlainInteractor, PlainView> {
        init() { super.init(interactor: PlainInteractor(), viewController: PlainView()) }
    }
    final actor PlainInteractor: Interactable {}
    final class PlainView: WebViewController {}

    @Test("the command puts the access log around the app's router, and --no-access-log leaves it out")
    func accessLogAroundTheApp() async throws {
        let request = Request(method: .get, target: "/hello")
        let logged = ServeCommand.router(of: Plain(), setup: try ServeSetupTests.setup(["--log-format", "json"]))
        let answer = try await logged.respond(to: request)
        #expect(answer.status == .ok && answer.headers["X-Request-ID"] != nil)
        let quiet = ServeCommand.router(of: Plain(), setup: try ServeSetupTests.setup(["--no-access-log"]))
        let plain = try await quiet.respond(to: request)
        #expect(plain.status == .ok && plain.headers["X-Request-ID"] == nil)
    }
}
