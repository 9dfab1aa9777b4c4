// README:begin "Forms and live updates" — a faithful copy: lines marked `// wrapper` are not in the README.
import NapkinHTTP
import NapkinWeb
import napkin

enum ReadmeWebModel { // wrapper

    final class AppComponent: Component<any EmptyDependency>, @unchecked Sendable {}

    final actor CounterInteractor: PresentableInteractable {
        nonisolated let presenter: CounterPresenter
        private var count = 0
        init(presenter: CounterPresenter) { self.presenter = presenter }

        func didTapIncrement() async {
            count += 1
            await presenter.show(count)   // the page patches itself
        }
    }

    @MainActor @Observable
    final class CounterPresenter: Presentable {
        var count = 0
        func show(_ value: Int) { count = value }
    }

    final class CounterViewController: WebViewController {
        private let presenter: CounterPresenter

        init(presenter: CounterPresenter, listener: CounterInteractor) {
            self.presenter = presenter
            super.init()
            action("increment") { await listener.didTapIncrement() }
        }

        override func body() -> HTML {
            "<h1>\(presenter.count)</h1>\(form("increment", content: "<button>+1</button>"))"
        }
    }

    @MainActor // wrapper
    static func makeRouter() -> HTTPRouter { // wrapper
        let app = NapkinApp(component: AppComponent(), configuration: NapkinConfiguration(layout: PageLayout(title: "Counter"))) { _ in
            let presenter = CounterPresenter()
            let interactor = CounterInteractor(presenter: presenter)
            return LaunchRouter(interactor: interactor, viewController: CounterViewController(presenter: presenter, listener: interactor))
        }
        var router = HTTPRouter()
        app.mount(on: &router, publicDirectory: "Public")   // napkin's routes and napkin.js, then the app's files
        return router // wrapper
    } // wrapper

    @MainActor // wrapper
    static func main() async throws { // wrapper
        let router = makeRouter() // wrapper
        try await HTTPServer(configuration: ServerConfiguration(port: 8080), responder: router).runUntilSignalled()
    } // wrapper
} // wrapper
// README:end
