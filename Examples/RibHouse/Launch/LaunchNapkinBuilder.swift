import NapkinWeb
import napkin

/// What the Launch napkin needs: the session's guest, and the app-wide
/// services that its subtree shows.
protocol LaunchNapkinDependency: Dependency {
    var authService: any AuthService { get }
    var pitService: PitService { get }
    @MainActor var pitLine: SharedFragment<PitState> { get }
    @MainActor var specialsBoard: SharedFragment<[Special]> { get }
    var announcements: EventBroadcaster<Announcement> { get }
    var sharedAnnouncements: SharedEvents<Announcement> { get }
    var photos: PhotoStore { get }
    var diners: Presence<Diner> { get }
    @MainActor var inTheHouse: SharedFragment<[String: Diner]> { get }
}

/// One tab's scope: what the Launch napkin's children need, passed down.
final class LaunchNapkinComponent: Component<any LaunchNapkinDependency>,
    LoggedOutNapkinDependency, LoggedInNapkinDependency, AnnouncementsNapkinDependency, @unchecked Sendable
{
    // Safe to share: no stored state of its own.
    var pitService: PitService { dependency.pitService }
    @MainActor var pitLine: SharedFragment<PitState> { dependency.pitLine }
    @MainActor var specialsBoard: SharedFragment<[Special]> { dependency.specialsBoard }
    var announcements: EventBroadcaster<Announcement> { dependency.announcements }
    var sharedAnnouncements: SharedEvents<Announcement> { dependency.sharedAnnouncements }
    var photos: PhotoStore { dependency.photos }
    var diners: Presence<Diner> { dependency.diners }
    @MainActor var inTheHouse: SharedFragment<[String: Diner]> { dependency.inTheHouse }
}

/// Builds the root of one tab's tree. napkin calls it once per new tab,
/// with the session's scope.
final class LaunchNapkinBuilder: Builder<any LaunchNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build() async -> LaunchNapkinRouter {
        let component = LaunchNapkinComponent(dependency: dependency)
        let presenter = LaunchNapkinPresenter()
        let interactor = LaunchNapkinInteractor(presenter: presenter, authService: dependency.authService)
        let router = LaunchNapkinRouter(
            interactor: interactor,
            viewController: LaunchNapkinViewController(presenter: presenter, listener: interactor),
            component: component)
        // The one ring wired after building: the router exists only after its interactor.
        await interactor.wire(router: router)
        return router
    }
}
