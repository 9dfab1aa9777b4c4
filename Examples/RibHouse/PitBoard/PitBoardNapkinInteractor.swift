import napkin

/// Follows the pit while the board is open: a second, independent
/// subscription to the same app-wide state the header follows.
final actor PitBoardNapkinInteractor: PresentableInteractable {
    nonisolated let presenter: PitBoardNapkinPresenter
    private let pitService: PitService

    init(presenter: PitBoardNapkinPresenter, pitService: PitService) {
        self.presenter = presenter
        self.pitService = pitService
    }

    func didBecomeActive() async {
        observe(await pitService.stateStream()) { [presenter] pit in
            await presenter.present(pit: pit)
        }
    }
}
