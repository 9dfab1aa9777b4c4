import NapkinWeb
import napkin

/// How LoggedIn talks up to its parent.
protocol LoggedInNapkinListener: AnyObject, Sendable {
    func loggedInDidTapLogout() async throws
}

/// Puts its guest in the house while active, and passes Logout up. Like
/// LoggedOut, it never routes to its sibling: the parent's auth gate does.
/// The header's pit line is a shared fragment, the same for every guest,
/// so no interactor of a session follows it.
final actor LoggedInNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: LoggedInNapkinPresenter
    private let listener: any LoggedInNapkinListener
    private let user: User
    private let diners: Presence<Diner>
    private let announcements: SharedEvents<Announcement>

    init(
        presenter: LoggedInNapkinPresenter, listener: any LoggedInNapkinListener, user: User, diners: Presence<Diner>,
        announcements: SharedEvents<Announcement>
    ) {
        self.presenter = presenter
        self.listener = listener
        self.user = user
        self.diners = diners
        self.announcements = announcements
    }

    func didBecomeActive() async {
        // Until this napkin resigns active: its tab is released, the guest
        // signs out, or the session ends. Two tabs of one guest are one
        // diner; a tree nobody views (a JSON request) tracks nothing.
        await diners.track(user.name, Diner(name: user.name), by: self)
    }

    /// Says `text` to every open browser, under the rules a posted
    /// announcement meets; a refused one becomes the form's message.
    func didAnnounce(_ text: String) async throws {
        let announcement = try Announcement(formText: text)
        do {
            try await announcements.send(announcement)
        } catch {
            throw FormError("The announcement reached this server only. Try again in a moment.")
        }
    }

    func didTapLogout() async throws {
        try await listener.loggedInDidTapLogout()
    }
}
