import napkin

/// Follows the pit while the board is open: a second, independent
/// subscription to the same app-wide `StateBroadcaster` the header uses.
final actor PitBoardNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any PitBoardNapkinPresentable

    private let pitService: PitService

    init(presenter: any PitBoardNapkinPresentable, pitService: PitService) {
        self.presenter = presenter
        self.pitService = pitService
    }

    func didBecomeActive() async {
        observe(await pitService.stateStream()) { [presenter] pit in
            await presenter.present(pit: pit)
        }
    }
}
