import NapkinWeb

/// How LoggedIn talks up to its parent.
protocol LoggedInNapkinListener: AnyObject, Sendable {
    func loggedInDidTapLogout() async throws
}

/// Puts its guest in the house while active, and passes Logout up. Like
/// LoggedOut, it never routes to its sibling: the parent's auth gate does.
/// The header's pit line is a shared fragment, the same for every guest,
/// so no interactor of a session follows it.
final actor LoggedInNapkinInteractor: PresentableInteractable {
    nonisolated let presenter: LoggedInNapkinPresenter
    private let listener: any LoggedInNapkinListener
    private let user: User
    private let diners: Presence<Diner>
    private let announcing: Announcing

    init(
        presenter: LoggedInNapkinPresenter, listener: any LoggedInNapkinListener, user: User, diners: Presence<Diner>,
        announcing: Announcing
    ) {
        self.presenter = presenter
        self.listener = listener
        self.user = user
        self.diners = diners
        self.announcing = announcing
    }

    func didBecomeActive() async {
        // Until this napkin resigns active: its tab is released, the guest
        // signs out, or the session ends. Two tabs of one guest are one
        // diner; a tree nobody views (a JSON request) tracks nothing.
        await diners.track(user.name, Diner(name: user.name), by: self)
    }

    /// Says `text` to every open browser, with `photo` if one came, under
    /// the rules a posted announcement meets; a refused one becomes the
    /// form's message.
    func didAnnounce(_ text: String, photo: UploadedFile?) async throws {
        try await announcing.announce(text: text, photo: photo)
    }

    func didTapLogout() async throws {
        try await listener.loggedInDidTapLogout()
    }
}
