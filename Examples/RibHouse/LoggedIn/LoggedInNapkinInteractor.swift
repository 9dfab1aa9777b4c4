import napkin

/// How LoggedIn talks up to its parent.
protocol LoggedInNapkinListener: AnyObject, Sendable {
    func loggedInDidTapLogout() async throws
}

/// Keeps the header's pit line live and passes Logout up. Like LoggedOut,
/// it never routes to its sibling: the parent's auth gate does.
final actor LoggedInNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: LoggedInNapkinPresenter
    private let listener: any LoggedInNapkinListener
    private let pitService: PitService

    init(presenter: LoggedInNapkinPresenter, listener: any LoggedInNapkinListener, pitService: PitService) {
        self.presenter = presenter
        self.listener = listener
        self.pitService = pitService
    }

    func didBecomeActive() async {
        // The pit replays its current state, then every tick; the observation
        // ends with this napkin (logout, or the session going away).
        observe(await pitService.stateStream()) { [presenter] pit in
            await presenter.present(pit: pit)
        }
    }

    func didTapLogout() async throws {
        try await listener.loggedInDidTapLogout()
    }
}
