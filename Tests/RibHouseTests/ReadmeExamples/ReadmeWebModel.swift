// README:begin "The web model" — a faithful copy: lines marked `// wrapper` are not in the README.
import NapkinHTTP
import NapkinWeb
import napkin

enum ReadmeWebModel { // wrapper
    final class AppComponent: Component<any EmptyDependency>, @unchecked Sendable {}

    protocol CounterListener: AnyObject, Sendable {
        func didTapIncrement() async
    }

    final actor CounterInteractor: PresentableInteractable, CounterListener {
        nonisolated let lifecycle = InteractorLifecycle()
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
        weak var listener: (any CounterListener)?
        private let presenter: CounterPresenter

        init(presenter: CounterPresenter) {
            self.presenter = presenter
            super.init()
            action("increment") { [weak self] in await self?.listener?.didTapIncrement() }
        }

        override func body() -> HTML {
            "<h1>\(presenter.count)</h1>\(form("increment", content: "<button>+1</button>"))"
        }
    }

    @MainActor
    final class CounterRouter: LaunchRouter<CounterInteractor, CounterViewController> {}

    @MainActor // wrapper
    static func makeRouter() -> HTTPRouter { // wrapper
        let app = NapkinApp(component: AppComponent(), configuration: NapkinConfiguration(layout: PageLayout(title: "Counter"))) { _ in
            let presenter = CounterPresenter()
            let view = CounterViewController(presenter: presenter)
            let interactor = CounterInteractor(presenter: presenter)
            view.listener = interactor
            return CounterRouter(interactor: interactor, viewController: view)
        }
        var router = HTTPRouter()
        app.mount(on: &router, publicDirectory: "Public")   // serves napkin.js too
        return router // wrapper
    } // wrapper

    @MainActor // wrapper
    static func main() async throws { // wrapper
        let router = makeRouter() // wrapper
        try await HTTPServer(configuration: ServerConfiguration(port: 8080), responder: router).runUntilSignalled()
    } // wrapper
} // wrapper
// README:end
