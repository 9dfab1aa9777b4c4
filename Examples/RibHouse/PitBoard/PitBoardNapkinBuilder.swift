import napkin

protocol PitBoardNapkinDependency: Dependency {
    var pitService: PitService { get }
}

protocol PitBoardNapkinBuildable: Buildable {
    @MainActor func build() async -> any ViewableRouting
}

/// Builds the chalkboard of smokers. Built afresh each time `/pit` is
/// opened; it reports nothing upward, so it takes no listener.
final class PitBoardNapkinBuilder: Builder<any PitBoardNapkinDependency>, PitBoardNapkinBuildable, @unchecked Sendable {
    // Safe to share: `Builder` holds only the immutable dependency.

    @MainActor
    func build() async -> any ViewableRouting {
        let viewController = PitBoardNapkinViewController()
        let presenter = PitBoardNapkinPresenter(viewController: viewController)
        viewController.presenter = presenter
        let interactor = PitBoardNapkinInteractor(presenter: presenter, pitService: dependency.pitService)
        return PitBoardNapkinRouter(interactor: interactor, viewController: viewController)
    }
}
