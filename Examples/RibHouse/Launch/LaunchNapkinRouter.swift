import NapkinWeb
import napkin

/// What the Launch interactor may ask of its router.
@MainActor
protocol LaunchNapkinRouting: LaunchRouting, WebRouting {
    func routeToLoggedOut() async
    func routeToLoggedIn(user: User) async
}

/// Keeps exactly one of LoggedOut and LoggedIn attached, plus the headless
/// Announcements napkin for the session's whole life.
///
/// It also remembers the page the browser is on, so signing in at `/pit`
/// lands on the Pit Board rather than the menu.
@MainActor
final class LaunchNapkinRouter: LaunchRouter<LaunchNapkinInteractor, any LaunchNapkinViewControllable>, LaunchNapkinRouting {
    private let loggedOutBuilder: any LoggedOutNapkinBuildable
    private let loggedInBuilder: any LoggedInNapkinBuildable
    private let announcementsBuilder: any AnnouncementsNapkinBuildable
    private var loggedOut: (any LoggedOutNapkinRouting)?
    private var loggedIn: (any LoggedInNapkinRouting)?
    private var path = WebPath.root

    init(
        interactor: LaunchNapkinInteractor,
        viewController: any LaunchNapkinViewControllable,
        loggedOutBuilder: any LoggedOutNapkinBuildable,
        loggedInBuilder: any LoggedInNapkinBuildable,
        announcementsBuilder: any AnnouncementsNapkinBuildable
    ) {
        self.loggedOutBuilder = loggedOutBuilder
        self.loggedInBuilder = loggedInBuilder
        self.announcementsBuilder = announcementsBuilder
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        await attachChild(await announcementsBuilder.build(withListener: interactor))
    }

    // MARK: - WebRouting

    func navigate(to path: WebPath) async -> Bool {
        self.path = path
        if let loggedIn {
            return await loggedIn.navigate(to: path)
        }
        // Signed out, every page of the house shows the login.
        return Page(path) != nil
    }

    // MARK: - LaunchNapkinRouting

    func routeToLoggedOut() async {
        await detachLoggedIn()
        guard loggedOut == nil else { return }
        let router = await loggedOutBuilder.build(withListener: interactor)
        loggedOut = router
        await attachChild(router)
        viewController.show(content: router.viewControllable)
    }

    func routeToLoggedIn(user: User) async {
        await detachLoggedOut()
        guard loggedIn == nil else { return }
        let router = await loggedInBuilder.build(withListener: interactor, user: user)
        loggedIn = router
        await attachChild(router)
        _ = await router.navigate(to: path)
        viewController.show(content: router.viewControllable)
    }

    private func detachLoggedOut() async {
        guard let router = loggedOut else { return }
        loggedOut = nil
        viewController.clearContent()
        await detachChild(router)
    }

    private func detachLoggedIn() async {
        guard let router = loggedIn else { return }
        loggedIn = nil
        viewController.clearContent()
        await detachChild(router)
    }
}
