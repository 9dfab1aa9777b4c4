import napkin

/// How LoggedIn talks up to its parent.
protocol LoggedInNapkinListener: AnyObject, Sendable {
    func loggedInDidTapLogout() async throws
}

/// How the view talks down to the interactor.
protocol LoggedInNapkinPresentableListener: AnyObject, Sendable {
    func didTapLogout() async throws
}

/// Keeps the header's pit line live and passes Logout up. Like LoggedOut,
/// it never routes to its sibling: the parent's auth gate does.
final actor LoggedInNapkinInteractor: PresentableInteractable, LoggedInNapkinPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any LoggedInNapkinPresentable

    private let pitService: PitService
    private weak var listener: (any LoggedInNapkinListener)?

    init(presenter: any LoggedInNapkinPresentable, pitService: PitService) {
        self.presenter = presenter
        self.pitService = pitService
    }

    func wire(listener: any LoggedInNapkinListener) {
        self.listener = listener
    }

    func didBecomeActive() async {
        // The pit replays its current state, then every tick; the observation ends
        // with this napkin (logout, or the session going away).
        observe(await pitService.stateStream()) { [presenter] pit in
            await presenter.present(pit: pit)
        }
    }

    func didTapLogout() async throws {
        try await listener?.loggedInDidTapLogout()
    }
}
