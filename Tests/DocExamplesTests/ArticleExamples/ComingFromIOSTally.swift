// Article:begin "ComingFromIOS.md", Swift block 1 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinWeb
import napkin

/// What Tally needs from its parent: nothing.
protocol TallyDependency: Dependency {}

/// What Tally's interactor presents through.
protocol TallyPresentable: Presentable {
    func update(count: Int)
}

/// Tally's logic: it counts, and presents the count.
final actor TallyInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any TallyPresentable
    private var count = 0

    init(presenter: any TallyPresentable) { self.presenter = presenter }

    func didTapIncrement() async {
        count += 1
        await presenter.update(count: count)
    }
}

/// The view is the presenter: `@Observable`, so a new count re-renders it.
@MainActor @Observable
final class TallyViewController: WebViewController, TallyPresentable {
    private(set) var count = 0
    @ObservationIgnored weak var listener: TallyInteractor?

    override init() {
        super.init()
        action("increment") { [weak self] in await self?.listener?.didTapIncrement() }
    }

    func update(count: Int) { self.count = count }

    override func body() -> HTML {
        "<p>Tally: \(count)</p>\(form("increment", content: "<button type=\"submit\">Add one</button>"))"
    }
}

/// Builds Tally: the view first, as the interactor presents through it.
final class TallyBuilder: Builder<any TallyDependency>, @unchecked Sendable {
    @MainActor func build() -> ViewableRouter<TallyInteractor, TallyViewController> {
        let viewController = TallyViewController()
        let interactor = TallyInteractor(presenter: viewController)
        viewController.listener = interactor
        return ViewableRouter(interactor: interactor, viewController: viewController)
    }
}
// Article:end
