import NapkinHTTP
import NapkinTesting
import NapkinWeb
import napkin

/// The smallest napkin app for testing the test client: one page with a
/// count and a button, on a live server or in-process.
@MainActor
final class TallyApp {
    enum Mode: String, CaseIterable, CustomStringConvertible {
        case inProcess, live
        var description: String { rawValue }
    }

    final class Scope: Component<any EmptyDependency>, @unchecked Sendable {}

    final actor TallyInteractor: Interactable {}

    @Observable
    final class TallyView: WebViewController {
        private(set) var count = 0

        override init() {
            super.init()
            action("add") { [weak self] in self?.count += 1 }
        }

        override func body() -> HTML {
            "<p class=\"tally\">Tally: \(count)</p>\(form("add", content: "<button type=\"submit\">Add one</button>"))"
        }
    }

    final class Tally: LaunchRouter<TallyInteractor, TallyView> {
        init() { super.init(interactor: TallyInteractor(), viewController: TallyView()) }
    }

    let app: NapkinApp
    private let router: HTTPRouter
    private var server: HTTPServer?

    /// The app, served on `127.0.0.1:0` in `.live` mode; streams beat
    /// every `heartbeat`, so a dropped one is found soon.
    init(_ mode: Mode, heartbeat: Duration = .milliseconds(100)) throws {
        app = NapkinApp(
            component: Scope(),
            configuration: NapkinConfiguration(idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(60), heartbeat: heartbeat)
        ) { _ in Tally() }
        var router = HTTPRouter()
        app.mount(on: &router)
        self.router = router
        if mode == .live {
            let server = HTTPServer(configuration: ServerConfiguration(port: 0), responder: router)
            try server.start()
            self.server = server
        }
    }

    /// A new browser tab against the app.
    func client() -> TestClient {
        server.map { TestClient(live: $0.port) } ?? TestClient(inProcess: router)
    }

    func stop() async {
        await server?.shutdown()
        await app.shutdown()
    }
}
