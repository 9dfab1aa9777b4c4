import napkin

/// What the Launch napkin needs from the app: the app-wide services that
/// its subtree shows.
protocol LaunchNapkinDependency: Dependency {
    var pitService: PitService { get }
    var specialsService: SpecialsService { get }
    var announcements: EventBroadcaster<Announcement> { get }
}

/// The session's scope. Its `authService` is `shared`, so each browser
/// session gets exactly one — signing in one browser signs in no other.
final class LaunchNapkinComponent: Component<any LaunchNapkinDependency>, @unchecked Sendable {
    // Safe to share: no stored state of its own; `shared` is locked.

    var authService: any AuthService { shared { BarbecueAuthService() } }
    var pitService: PitService { dependency.pitService }
    var specialsService: SpecialsService { dependency.specialsService }
    var announcements: EventBroadcaster<Announcement> { dependency.announcements }
}

extension LaunchNapkinComponent: LoggedOutNapkinDependency, LoggedInNapkinDependency, AnnouncementsNapkinDependency {}

protocol LaunchNapkinBuildable: Buildable {
    @MainActor func build() async -> any LaunchNapkinRouting
}

/// Builds the root of one session's tree. napkin calls it once per new
/// browser session.
final class LaunchNapkinBuilder: Builder<any LaunchNapkinDependency>, LaunchNapkinBuildable, @unchecked Sendable {
    // Safe to share: `Builder` holds only the immutable dependency.

    @MainActor
    func build() async -> any LaunchNapkinRouting {
        let component = LaunchNapkinComponent(dependency: dependency)
        let viewController = LaunchNapkinViewController()
        let presenter = LaunchNapkinPresenter(viewController: viewController)
        viewController.presenter = presenter
        let interactor = LaunchNapkinInteractor(presenter: presenter, authService: component.authService)
        viewController.listener = interactor
        let router = LaunchNapkinRouter(
            interactor: interactor,
            viewController: viewController,
            loggedOutBuilder: LoggedOutNapkinBuilder(dependency: component),
            loggedInBuilder: LoggedInNapkinBuilder(dependency: component),
            announcementsBuilder: AnnouncementsNapkinBuilder(dependency: component)
        )
        await interactor.wire(router: router)
        return router
    }
}
