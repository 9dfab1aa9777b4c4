import NapkinWeb

/// The auth gate of a session.
///
/// Routing follows auth state, never taps: one observation of
/// `authService.userStream()` decides between LoggedOut and LoggedIn. The
/// listener methods below only change that state. The interactor also shows
/// announcements as toasts.
final actor LaunchNapkinInteractor:
    PresentableInteractable,
    LoggedOutNapkinListener,
    LoggedInNapkinListener,
    AnnouncementsNapkinListener
{
    nonisolated let presenter: LaunchNapkinPresenter

    private let authService: any AuthService
    private weak var router: (any LaunchNapkinRouting)?

    init(presenter: LaunchNapkinPresenter, authService: any AuthService) {
        self.presenter = presenter
        self.authService = authService
    }

    /// Called once by the builder: the router exists only after the interactor.
    func wire(router: any LaunchNapkinRouting) {
        self.router = router
    }

    func didBecomeActive() async {
        // The stream replays the current user (nil at first), so this same
        // observation attaches LoggedOut when the session starts.
        observe(await authService.userStream()) { [weak self] user in
            await self?.route(for: user)
        }
    }

    private func route(for user: User?) async {
        if let user {
            await router?.routeToLoggedIn(user: user)
        } else {
            await router?.routeToLoggedOut()
        }
    }

    // MARK: - LoggedOutNapkinListener

    func loggedOutDidSubmit(name: String) async throws {
        // A refused name changes nothing.
        _ = try LoginError.validate(name: name)
        // Who is signed in changes: an id known before login (planted by
        // someone else) must not become a signed-in session — not even in
        // the session record, which the login writes to next.
        await WebSession.rotateCurrentID()
        try await authService.login(name: name)
    }

    // MARK: - LoggedInNapkinListener

    func loggedInDidTapLogout() async throws {
        await WebSession.rotateCurrentID()
        try await authService.logout()
    }

    // MARK: - AnnouncementsNapkinListener

    func announcementsDidReceive(_ announcement: Announcement) async {
        await presenter.toasts.show(announcement)
    }

    // MARK: - From the view

    func didDismissToast(_ id: Int?) async {
        await presenter.toasts.dismiss(id)
    }
}
