import NapkinWeb
import napkin

protocol PitBoardNapkinDependency: Dependency {
    var pitService: PitService { get }
}

/// Builds the chalkboard of smokers, afresh each time `/pit` is opened. It
/// reports nothing upward, so it takes no listener.
final class PitBoardNapkinBuilder: Builder<any PitBoardNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build() -> ViewableRouter<PitBoardNapkinInteractor, PitBoardNapkinViewController> {
        let presenter = PitBoardNapkinPresenter()
        let interactor = PitBoardNapkinInteractor(presenter: presenter, pitService: dependency.pitService)
        return ViewableRouter(interactor: interactor, viewController: PitBoardNapkinViewController(presenter: presenter))
    }
}
