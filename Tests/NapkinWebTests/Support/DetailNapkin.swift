import NapkinWeb
import napkin

/// A child napkin attached at `/detail`: it shows the app-wide counter
/// through its own bound subscription.
@MainActor
struct DetailBuilder {
    let dependency: any HomeDependency

    func build() -> DetailRouter {
        let presenter = DetailPresenter()
        let viewController = DetailViewController(presenter: presenter)
        let interactor = DetailInteractor(presenter: presenter, counter: dependency.counter, probe: dependency.probe)
        let router = DetailRouter(interactor: interactor, viewController: viewController)
        for object: AnyObject in [presenter, viewController, interactor, router] { dependency.probe.track(object) }
        return router
    }
}

final actor DetailInteractor: PresentableInteractable {
    nonisolated let presenter: DetailPresenter
    private let counter: CounterService
    private let probe: Probe

    init(presenter: DetailPresenter, counter: CounterService, probe: Probe) {
        self.presenter = presenter
        self.counter = counter
        self.probe = probe
    }

    func didBecomeActive() async {
        probe.track(task { [counter, presenter] in
            for await value in await counter.values.subscribe() {
                await presenter.show(value)
            }
        })
    }
}

@MainActor
@Observable
final class DetailPresenter {
    var shared = -1
    func show(_ value: Int) { shared = value }
}

@MainActor
final class DetailViewController: WebViewController {
    private let presenter: DetailPresenter

    init(presenter: DetailPresenter) {
        self.presenter = presenter
        super.init()
    }

    override func body() -> HTML {
        "<section class=\"detail\">Detail sees \(presenter.shared)</section>"
    }
}

@MainActor
final class DetailRouter: ViewableRouter<DetailInteractor, DetailViewController> {}
