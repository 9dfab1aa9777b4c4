import NapkinHTTP
import Testing
import NapkinTesting
import NapkinWeb
import napkin

/// The test app, assembled as a real app would be, with a client in the
/// requested mode.
@MainActor
final class TestApp {
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case inProcess, live
        var testDescription: String { rawValue }
    }

    let component = TestAppComponent()
    let app: NapkinApp
    let router: HTTPRouter
    private var server: HTTPServer?
    private(set) var port = 0

    /// How long a post waits for its consequences: napkin's 2 s default is
    /// too tight under ThreadSanitizer, where a post would answer before
    /// its change is applied.
    static let settleTimeout: Duration = .seconds(10)
    /// How long a tab without a stream stays, unless the test sets its own.
    static let tabGracePeriod: Duration = .seconds(60)

    /// Gives another app in a test (a dashboard's) that grace, for tabs
    /// with a stream and tabs still waiting to open one.
    static func slowRunGrace(_ configuration: inout NapkinConfiguration) {
        configuration.tabGracePeriod = tabGracePeriod
        configuration.newTabGracePeriod = max(configuration.newTabGracePeriod, tabGracePeriod)
    }

    init(configuration: NapkinConfiguration = NapkinConfiguration(layout: PageLayout(title: "Test")), publicDirectory: String? = nil,
         accessLog: Lines? = nil) {
        var configuration = configuration
        // A test that sets its own settle timeout keeps it.
        if configuration.settleTimeout == NapkinConfiguration().settleTimeout { configuration.settleTimeout = Self.settleTimeout }
        // A test client without a stream is a tab nobody views: napkin's
        // 3 s grace would release it between two slow requests of a test.
        // Tests of the grace set another, and move the clock.
        if configuration.tabGracePeriod == NapkinConfiguration().tabGracePeriod { configuration.tabGracePeriod = Self.tabGracePeriod }
        app = NapkinApp(component: component, configuration: configuration) { component in
            HomeBuilder(dependency: component).build()
        }
        var router = HTTPRouter()
        if let accessLog { router.use(AccessLog(sink: accessLog.sink)) }
        router.get("/api/ping") { _ in .text("pong") }
        app.mount(on: &router, publicDirectory: publicDirectory)
        self.router = router
    }

    /// Starts a live server when `mode` needs one.
    static func start(_ mode: Mode, configuration: NapkinConfiguration = NapkinConfiguration(layout: PageLayout(title: "Test")),
                      serverConfiguration: ServerConfiguration = ServerConfiguration(),
                      publicDirectory: String? = nil, accessLog: Lines? = nil) async throws -> TestApp {
        let testApp = TestApp(configuration: configuration, publicDirectory: publicDirectory, accessLog: accessLog)
        if mode == .live {
            let server = HTTPServer(configuration: serverConfiguration, responder: testApp.router)
            try server.start()
            testApp.server = server
            testApp.port = server.port
        }
        return testApp
    }

    /// A new browser against the app.
    func client() -> TestClient {
        server == nil ? TestClient(inProcess: router) : TestClient(live: port)
    }

    func stop() async {
        await server?.shutdown()
        await app.shutdown()
    }
}
