import napkin

/// Follows the specials board: the current specials, then every change,
/// until this napkin is detached.
final actor SpecialsNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any SpecialsNapkinPresentable

    private let specialsService: SpecialsService

    init(presenter: any SpecialsNapkinPresentable, specialsService: SpecialsService) {
        self.presenter = presenter
        self.specialsService = specialsService
    }

    func didBecomeActive() async {
        observe(await specialsService.updates()) { [presenter] list in
            await presenter.present(specials: list)
        }
    }
}
