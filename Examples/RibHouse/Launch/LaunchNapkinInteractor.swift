import NapkinWeb

/// The auth gate of a session.
///
/// Routing follows auth state, never taps: one observation of
/// `authService.userStream()` decides between LoggedOut and LoggedIn. The
/// listener methods below only change that state. The interactor also turns
/// announcements into toasts that expire on their own or when closed.
final actor LaunchNapkinInteractor:
    PresentableInteractable,
    LoggedOutNapkinListener,
    LoggedInNapkinListener,
    AnnouncementsNapkinListener
{
    nonisolated let presenter: LaunchNapkinPresenter

    /// How long a toast stays on the page.
    static let toastLifetime: Duration = .seconds(8)

    private let authService: any AuthService
    private weak var router: (any LaunchNapkinRouting)?
    private var lastToastID = 0
    /// The expiry timer of each toast on the page, oldest first: never more
    /// than ``Toast/limit``, however fast announcements come.
    private var toastTimers: [(id: Toast.ID, timer: Task<Void, Never>)] = []


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
        lastToastID += 1
        let toast = Toast(id: lastToastID, text: announcement.text, photoURL: announcement.photoURL)
        await presenter.present(toast: toast)
        // Bound to the active scope: a session torn down takes its timers along.
        let timer = task { [weak self] in
            // From here it only waits for time, which napkin cannot see:
            // whoever waits for this announcement to settle need not wait
            // for the toast to expire.
            Settlement.awaitingInput()
            guard (try? await Task.sleep(for: Self.toastLifetime)) != nil else { return }
            await self?.expire(toast.id)
        }
        toastTimers.append((toast.id, timer))
        // The presenter dropped the oldest toasts beyond the limit; their
        // timers have nothing left to do. Waiting for them to end (at once,
        // being cancelled) means a burst never leaves more than a few behind.
        while toastTimers.count > Toast.limit {
            await end(toastTimers.removeFirst().timer)
        }
    }

    // MARK: - From the view

    func didDismissToast(id: Toast.ID) async {
        if let index = toastTimers.firstIndex(where: { $0.id == id }) {
            await end(toastTimers.remove(at: index).timer)
        }
        await presenter.dismissToast(id: id)
    }

    // MARK: - Toast timers

    /// A toast's time is up (called from its own timer, which then ends).
    private func expire(_ id: Toast.ID) async {
        toastTimers.removeAll { $0.id == id }
        await presenter.dismissToast(id: id)
    }

    private func end(_ timer: Task<Void, Never>) async {
        timer.cancel()
        await timer.value
    }
}
