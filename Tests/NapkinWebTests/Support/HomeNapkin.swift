import NapkinWeb
import napkin

protocol HomeDependency: Dependency {
    var counter: CounterService { get }
    var probe: Probe { get }
}

/// The root napkin of the test app: a per-session counter, a note form, the
/// app-wide counter, and a Detail child at `/detail`.
@MainActor
final class HomeBuilder {
    let dependency: any HomeDependency

    init(dependency: any HomeDependency) {
        self.dependency = dependency
    }

    func build() -> HomeRouter {
        let presenter = HomePresenter()
        let viewController = HomeViewController(presenter: presenter)
        let interactor = HomeInteractor(presenter: presenter, counter: dependency.counter, probe: dependency.probe)
        viewController.listener = interactor
        let router = HomeRouter(interactor: interactor, viewController: viewController, dependency: dependency)
        for object: AnyObject in [presenter, viewController, interactor, router] { dependency.probe.track(object) }
        return router
    }
}

protocol HomePresentableListener: AnyObject, Sendable {
    func didTapIncrement() async
    func didSubmitNote(_ text: String) async
    func didTapBump() async
    func didTapSignIn() async
}

final actor HomeInteractor: PresentableInteractable, HomePresentableListener {
    nonisolated let presenter: HomePresenter
    private let counter: CounterService
    private let probe: Probe
    private var count = 0

    init(presenter: HomePresenter, counter: CounterService, probe: Probe) {
        self.presenter = presenter
        self.counter = counter
        self.probe = probe
    }

    func didBecomeActive() async {
        probe.interactorActivated()
        probe.track(task { [counter, presenter] in
            for await value in await counter.values.subscribe() {
                await presenter.showShared(value)
            }
        })
    }

    func willResignActive() async {
        probe.interactorResigned()
    }

    func didTapIncrement() async {
        count += 1
        await presenter.showCount(count)
    }

    func didSubmitNote(_ text: String) async {
        await presenter.showNote(text)
    }

    func didTapBump() async {
        await counter.bump()
    }

    /// Who is signed in changed: a new session id, as an app does at login.
    func didTapSignIn() async {
        await WebSession.rotateCurrentID()
    }
}

@MainActor
@Observable
final class HomePresenter: StatePresenting {
    var count = 0
    var shared = 0
    var note = ""

    struct State: Encodable {
        let count: Int
        let shared: Int
        let note: String
    }

    var state: State { State(count: count, shared: shared, note: note) }

    func showCount(_ value: Int) { count = value }
    func showShared(_ value: Int) { shared = value }
    func showNote(_ value: String) { note = value }
}

struct NoteForm: Decodable {
    let text: String
}

@MainActor
final class HomeViewController: WebViewController {
    weak var listener: (any HomePresentableListener)?
    private let presenter: HomePresenter

    init(presenter: HomePresenter) {
        self.presenter = presenter
        super.init()
        action("increment") { [weak self] in await self?.listener?.didTapIncrement() }
        action("bump") { [weak self] in await self?.listener?.didTapBump() }
        action("sign-in") { [weak self] in await self?.listener?.didTapSignIn() }
        action("note", as: NoteForm.self) { [weak self] form in await self?.listener?.didSubmitNote(form.text) }
    }

    override func body() -> HTML {
        """
        <h1 class="count">Count: \(presenter.count)</h1>\
        \(region("shared") { [presenter] in "<p class=\"shared\">Shared: \(presenter.shared)</p>" })\
        <p class="note">\(presenter.note)</p>\
        \(form("increment", content: "<button type=\"submit\">Increment</button>"))\
        \(form("bump", content: "<button type=\"submit\">Bump</button>"))\
        \(form("sign-in", content: "<button type=\"submit\">Sign in</button>"))\
        \(form("note", content: "<input name=\"text\" value=\"\"><button type=\"submit\">Save note</button>"))\
        \(slot("detail"))\(slot("order"))
        """
    }
}

@MainActor
final class HomeRouter: LaunchRouter<HomeInteractor, HomeViewController>, WebRouting {
    private let dependency: any HomeDependency
    private var detail: DetailRouter?
    /// Built once and attached again on every visit, so a test can tell
    /// what leaving the page did to the same view controller.
    private lazy var order = OrderBuilder().build()
    private var orderAttached = false

    init(interactor: HomeInteractor, viewController: HomeViewController, dependency: any HomeDependency) {
        self.dependency = dependency
        super.init(interactor: interactor, viewController: viewController)
    }

    func navigate(to path: WebPath) async -> Bool {
        switch path.first {
        case nil:
            await detachDetail()
            await detachOrder()
            return true
        case "detail":
            await detachOrder()
            await attachDetail()
            return path.rest.isRoot
        case "order":
            await detachDetail()
            await attachOrder()
            return path.rest.isRoot
        default:
            return false
        }
    }

    private func attachDetail() async {
        guard detail == nil else { return }
        let router = DetailBuilder(dependency: dependency).build()
        detail = router
        await attachChild(router)
        viewController.show(router.viewControllable, in: "detail")
    }

    private func attachOrder() async {
        guard !orderAttached else { return }
        orderAttached = true
        await attachChild(order)
        viewController.show(order.viewControllable, in: "order")
    }

    private func detachOrder() async {
        guard orderAttached else { return }
        orderAttached = false
        viewController.clear(slot: "order")
        await detachChild(order)
    }

    private func detachDetail() async {
        guard let router = detail else { return }
        detail = nil
        viewController.clear(slot: "detail")
        await detachChild(router)
    }
}
