import NapkinHTTP
import NapkinWeb
import napkin

/// The web suite's app: a signed-in page of four napkins (a shell, a menu,
/// and two live gauges fed by one app-wide ticker), about the size of Rib
/// House's signed-in page.
final class BenchComponent: Component<any EmptyDependency>, @unchecked Sendable {
    // Safe to share: adds no stored state; `shared` is the base class's.
    var ticker: StateBroadcaster<Int> { shared { StateBroadcaster(0) } }
}

final actor BenchInteractor: PresentableInteractable {
    nonisolated let presenter: BenchPresenter
    private let ticker: StateBroadcaster<Int>?

    init(presenter: BenchPresenter, ticker: StateBroadcaster<Int>?) {
        self.presenter = presenter
        self.ticker = ticker
    }

    func didBecomeActive() async {
        guard let ticker else { return }
        observe(await ticker.subscribe()) { [presenter] value in await presenter.show(value) }
    }
}

@MainActor
@Observable
final class BenchPresenter {
    var value = 0
    func show(_ value: Int) { self.value = value }
}

@MainActor
final class BenchViewController: WebViewController {
    private let presenter: BenchPresenter
    private let title: String
    private let items: [String]
    private let slotNames: [String]

    init(presenter: BenchPresenter, title: String, items: [String], slots: [String]) {
        self.presenter = presenter
        self.title = title
        self.items = items
        self.slotNames = slots
        super.init()
        action("noop") {}
    }

    override var napkinName: String { title }

    override func body() -> HTML {
        let list = items.enumerated().map { index, item -> HTML in "<li data-index=\"\(index)\">\(item)</li>" }
        let slots = slotNames.map { slot($0) }
        return """
            <section class="\(title.lowercased())"><h2>\(title)</h2><p class="value">Reading: \(presenter.value)°F</p>\
            <ol>\(list)</ol>\(form("noop", content: "<button type=\"submit\">Refresh</button>"))\(slots)</section>
            """
    }
}

@MainActor
final class BenchRouter: ViewableRouter<BenchInteractor, BenchViewController> {}

@MainActor
final class BenchRootRouter: LaunchRouter<BenchInteractor, BenchViewController> {
    private let component: BenchComponent

    init(interactor: BenchInteractor, viewController: BenchViewController, component: BenchComponent) {
        self.component = component
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        let menu = BenchApp.leaf("Menu", items: BenchApp.foods, ticker: nil, slots: ["left", "right"])
        await attachChild(menu)
        viewController.show(menu.viewControllable, in: "main")
        for (slot, name) in [("left", "Smoker"), ("right", "Pit")] {
            let gauge = BenchApp.leaf(name, items: ["Hickory", "Oak"], ticker: component.ticker, slots: [])
            await menu.attachChild(gauge)
            menu.viewController.show(gauge.viewControllable, in: slot)
        }
    }
}

@MainActor
enum BenchApp {
    static let foods = ["Brisket", "Pulled Pork", "St. Louis Ribs", "Burnt Ends", "Smoked Sausage"]

    static func leaf(_ title: String, items: [String], ticker: StateBroadcaster<Int>?, slots: [String]) -> BenchRouter {
        let presenter = BenchPresenter()
        let viewController = BenchViewController(presenter: presenter, title: title, items: items, slots: slots)
        return BenchRouter(interactor: BenchInteractor(presenter: presenter, ticker: ticker), viewController: viewController)
    }

    /// The app and its router, with plain-text routes beside the pages.
    static func make(
        maxSessions: Int = 100_000, maxTabsPerSession: Int = 16,
        sessionRecords: any SessionRecordStore = InMemorySessionRecords()
    ) -> (app: NapkinApp, router: HTTPRouter, component: BenchComponent) {
        let component = BenchComponent()
        // The figures are of trees held: a page view without a stream (all
        // a benchmark's requests make) must not be released mid-run.
        let configuration = NapkinConfiguration(
            layout: PageLayout(title: "Bench", stylesheets: ["/bench.css"]), maxSessions: maxSessions,
            tabGracePeriod: .seconds(3600), maxTabsPerSession: maxTabsPerSession, sessionRecords: sessionRecords)
        let app = NapkinApp(component: component, configuration: configuration) { component in
            let presenter = BenchPresenter()
            let viewController = BenchViewController(presenter: presenter, title: "Shell", items: ["Welcome back, Ada"], slots: ["main"])
            return BenchRootRouter(
                interactor: BenchInteractor(presenter: presenter, ticker: nil), viewController: viewController, component: component)
        }
        var router = HTTPRouter()
        router.get("/plain") { _ in .text("Hello, world!") }
        // The same text from a handler task, as every handler ran before
        // routes that answer at once: the base of the page's target.
        router.get("/plain/task") { _ async in .text("Hello, world!") }
        app.mount(on: &router)
        return (app, router, component)
    }
}
