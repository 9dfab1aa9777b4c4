import napkin

/// What the Launch napkin needs: the session's guest, and the app-wide
/// services that its subtree shows.
protocol LaunchNapkinDependency: Dependency {
    var authService: any AuthService { get }
    var pitService: PitService { get }
    var specialsService: SpecialsService { get }
    var announcements: EventBroadcaster<Announcement> { get }
}

/// One tab's scope: what the Launch napkin's children need, passed down.
final class LaunchNapkinComponent: Component<any LaunchNapkinDependency>, @unchecked Sendable {
    // Safe to share: no stored state of its own.

    var authService: any AuthService { dependency.authService }
    var pitService: PitService { dependency.pitService }
    var specialsService: SpecialsService { dependency.specialsService }
    var announcements: EventBroadcaster<Announcement> { dependency.announcements }
}

extension LaunchNapkinComponent: LoggedOutNapkinDependency, LoggedInNapkinDependency, AnnouncementsNapkinDependency {}

protocol LaunchNapkinBuildable: Buildable {
    @MainActor func build() async -> any LaunchNapkinRouting
}

/// Builds the root of one tab's tree. napkin calls it once per new tab,
/// with the tab's session scope.
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
