import napkin

/// Follows the specials board: the current specials, then every change,
/// until this napkin is detached.
final actor SpecialsNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: SpecialsNapkinPresenter
    private let specialsService: SpecialsService

    init(presenter: SpecialsNapkinPresenter, specialsService: SpecialsService) {
        self.presenter = presenter
        self.specialsService = specialsService
    }

    func didBecomeActive() async {
        observe(await specialsService.updates()) { [presenter] list in
            await presenter.present(specials: list)
        }
    }
}
