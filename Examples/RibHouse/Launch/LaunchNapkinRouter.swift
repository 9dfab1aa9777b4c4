import NapkinWeb

/// What the Launch interactor may ask of its router.
@MainActor
protocol LaunchNapkinRouting: AnyObject, Sendable {
    func routeToLoggedOut() async
    func routeToLoggedIn(user: User) async
}

/// Keeps exactly one of LoggedOut and LoggedIn in the page's content slot,
/// plus the headless Announcements napkin for the tab's whole life.
///
/// It also remembers the page the tab is on, so signing in at `/pit` lands
/// on the Pit Board rather than the menu.
final class LaunchNapkinRouter: LaunchRouter<LaunchNapkinInteractor, LaunchNapkinViewController>, LaunchNapkinRouting, WebRouting {
    private let loggedOutBuilder: LoggedOutNapkinBuilder
    private let loggedInBuilder: LoggedInNapkinBuilder
    private let announcementsBuilder: AnnouncementsNapkinBuilder
    private var path = WebPath.root

    init(interactor: LaunchNapkinInteractor, viewController: LaunchNapkinViewController, dependency: any LaunchNapkinDependency) {
        loggedOutBuilder = LoggedOutNapkinBuilder(dependency: dependency.app)
        loggedInBuilder = LoggedInNapkinBuilder(dependency: dependency.app)
        announcementsBuilder = AnnouncementsNapkinBuilder(dependency: dependency.app)
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        await attachChild(announcementsBuilder.build(listener: interactor))
    }

    func navigate(to path: WebPath) async -> Bool {
        self.path = path
        if let loggedIn = child(in: "content") as? LoggedInNapkinRouter {
            return await loggedIn.navigate(to: path)
        }
        // Signed out, every page of the house shows the login.
        return Page(path) != nil
    }

    func routeToLoggedOut() async {
        await attachIfNeeded(in: "content") { loggedOutBuilder.build(listener: interactor) }
    }

    func routeToLoggedIn(user: User) async {
        await attachIfNeeded(in: "content", navigatingTo: path) { loggedInBuilder.build(listener: interactor, user: user) }
    }
}
