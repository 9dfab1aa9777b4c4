import napkin

protocol SpecialsNapkinDependency: Dependency {
    var specialsService: SpecialsService { get }
}

protocol SpecialsNapkinBuildable: Buildable {
    @MainActor func build() async -> any ViewableRouting
}

/// Builds the specials board. It has nothing to tell its parent, so it
/// takes no listener.
final class SpecialsNapkinBuilder: Builder<any SpecialsNapkinDependency>, SpecialsNapkinBuildable, @unchecked Sendable {
    // Safe to share: `Builder` holds only the immutable dependency.

    @MainActor
    func build() async -> any ViewableRouting {
        let viewController = SpecialsNapkinViewController()
        let presenter = SpecialsNapkinPresenter(viewController: viewController)
        viewController.presenter = presenter
        let interactor = SpecialsNapkinInteractor(presenter: presenter, specialsService: dependency.specialsService)
        return SpecialsNapkinRouter(interactor: interactor, viewController: viewController)
    }
}
