import napkin

/// What LoggedIn needs: the pit for its header, and what its children need.
protocol LoggedInNapkinDependency: Dependency {
    var authService: any AuthService { get }
    var pitService: PitService { get }
    var specialsService: SpecialsService { get }
}

final class LoggedInNapkinComponent: Component<any LoggedInNapkinDependency>, @unchecked Sendable {
    // Safe to share: no stored state of its own; `shared` is locked.

    var pitService: PitService { dependency.pitService }
    var specialsService: SpecialsService { dependency.specialsService }
}

extension LoggedInNapkinComponent: SpecialsNapkinDependency, PitBoardNapkinDependency {}

protocol LoggedInNapkinBuildable: Buildable {
    @MainActor func build(withListener listener: any LoggedInNapkinListener, user: User) async -> any LoggedInNapkinRouting
}

/// Builds the signed-in screen for one `user`. The user threads through
/// every ring; a new login builds a new napkin, so nothing of the previous
/// guest survives.
final class LoggedInNapkinBuilder: Builder<any LoggedInNapkinDependency>, LoggedInNapkinBuildable, @unchecked Sendable {
    // Safe to share: `Builder` holds only the immutable dependency.

    @MainActor
    func build(withListener listener: any LoggedInNapkinListener, user: User) async -> any LoggedInNapkinRouting {
        let component = LoggedInNapkinComponent(dependency: dependency)
        let viewController = LoggedInNapkinViewController()
        let presenter = LoggedInNapkinPresenter(viewController: viewController, user: user)
        viewController.presenter = presenter
        let interactor = LoggedInNapkinInteractor(presenter: presenter, pitService: component.pitService)
        viewController.listener = interactor
        let router = LoggedInNapkinRouter(
            interactor: interactor,
            viewController: viewController,
            specialsBuilder: SpecialsNapkinBuilder(dependency: component),
            pitBoardBuilder: PitBoardNapkinBuilder(dependency: component)
        )
        await interactor.wire(listener: listener)
        return router
    }
}
