import NapkinWeb

/// What the Pit Board needs: the pit it follows.
protocol PitBoardNapkinDependency: Dependency { var pitService: PitService { get } }

/// Builds the chalkboard of smokers, afresh each time `/pit` is opened. It
/// reports nothing upward, so it takes no listener.
final class PitBoardNapkinBuilder: Builder<any PitBoardNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor func build() -> ViewableRouter<PitBoardNapkinInteractor, PitBoardNapkinViewController> {
        let presenter = PitBoardNapkinPresenter(nil)
        let interactor = PitBoardNapkinInteractor(presenter: presenter, pitService: dependency.pitService)
        return ViewableRouter(interactor: interactor, viewController: PitBoardNapkinViewController(presenter: presenter))
    }
}

/// Follows the pit while the board is open: a second, independent
/// subscription to the same app-wide state the header follows.
final actor PitBoardNapkinInteractor: PresentableInteractable {
    nonisolated let presenter: PitBoardNapkinPresenter
    private let pitService: PitService

    init(presenter: PitBoardNapkinPresenter, pitService: PitService) {
        self.presenter = presenter
        self.pitService = pitService
    }

    func didBecomeActive() async {
        observe(await pitService.stateStream()) { [presenter] in await presenter.present($0) }
    }
}

/// The board's state: the pit as last chalked up (none until the first
/// tick arrives); its JSON snapshot is the pit.
typealias PitBoardNapkinPresenter = ValuePresenter<PitState?>

/// The chalkboard: a table of smokers and when it was last chalked up.
final class PitBoardNapkinViewController: WebViewController {
    let presenter: PitBoardNapkinPresenter

    init(presenter: PitBoardNapkinPresenter) { self.presenter = presenter }

    override var pageTitle: String? { "Pit Board · Rib House" }

    override func body() -> HTML {
        let rows = (presenter.value?.smokers ?? []).map { smoker -> HTML in
            """
            <tr class="\(smoker.isReady ? "ready" : "cooking")"><td>\(smoker.name)</td><td class="temp">\(smoker.temperature)°F</td>\
            <td>\(smoker.item)</td><td class="status">\(smoker.statusText)</td></tr>
            """
        }
        return """
            <section class="pitboard" aria-labelledby="rh-pitboard"><h2 id="rh-pitboard">The Pit Board</h2>\
            <table class="smokers"><thead><tr><th scope="col">Smoker</th><th scope="col">Temp</th>\
            <th scope="col">On the grate</th><th scope="col">Status</th></tr></thead><tbody>\(rows)</tbody></table>\
            <p class="updated">\(presenter.value?.chalkedUp ?? "Waiting for the pit…")</p></section>
            """
    }
}
