import napkin

/// How LoggedIn talks up to its parent.
protocol LoggedInNapkinListener: AnyObject, Sendable {
    func loggedInDidTapLogout() async throws
}

/// Passes Logout up. Like LoggedOut, it never routes to its sibling: the
/// parent's auth gate does. The header's pit line is a shared fragment,
/// the same for every guest, so no interactor of a session follows it.
final actor LoggedInNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: LoggedInNapkinPresenter
    private let listener: any LoggedInNapkinListener

    init(presenter: LoggedInNapkinPresenter, listener: any LoggedInNapkinListener) {
        self.presenter = presenter
        self.listener = listener
    }

    func didTapLogout() async throws {
        try await listener.loggedInDidTapLogout()
    }
}
