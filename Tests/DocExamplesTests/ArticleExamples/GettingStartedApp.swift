// Article:begin "GettingStarted.md", Swift block 2 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinServe
import NapkinWeb

/// The app-wide scope: one for the whole app, where shared services live.
/// It gives each napkin what its dependency protocol asks for.
final class AppComponent: Component<any EmptyDependency>, CounterNapkinDependency, @unchecked Sendable {}

/// The root napkin's logic: nothing yet.
final actor HomeInteractor: Interactable {}

/// The page: a heading, and whatever napkin is shown in the "counter" slot.
final class HomeView: WebViewController {
    override func body() -> HTML {
        "<main><h1>Smokehouse</h1>\(slot("counter"))</main>"
    }
}

/// The root of every tab's tree: it shows the Counter napkin for as long as
/// the tab lives.
final class HomeRouter: LaunchRouter<HomeInteractor, HomeView> {
    private let counterBuilder: CounterNapkinBuilder

    init(component: AppComponent) {
        counterBuilder = CounterNapkinBuilder(dependency: component)
        super.init(interactor: HomeInteractor(), viewController: HomeView())
    }

    override func didLoad() async {
        await attach(counterBuilder.build(), in: "counter")
    }
}

/// The app: napkin's pages, event streams, form actions and client script
/// on one router, with a health check of the app's own.
@MainActor
struct Smokehouse: ServedApp {
    static let configuration = NapkinConfiguration(layout: PageLayout(title: "Smokehouse"))
    let app: NapkinApp
    let router: HTTPRouter

    init(configuration: NapkinConfiguration = Smokehouse.configuration) {
        app = NapkinApp(component: AppComponent(), configuration: configuration) { component in
            HomeRouter(component: component)
        }
        var router = HTTPRouter()
        router.get("/health") { _ in .text("ok") }
        app.mount(on: &router)
        self.router = router
    }
}
// Article:end
