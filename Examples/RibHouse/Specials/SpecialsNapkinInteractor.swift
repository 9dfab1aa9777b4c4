import napkin

/// Follows the specials board. The service is main-actor `@Observable`
/// state, so `Observations` is the whole subscription: it yields the current
/// specials, then every change, until this napkin is detached.
final actor SpecialsNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any SpecialsNapkinPresentable

    private let specialsService: SpecialsService

    init(presenter: any SpecialsNapkinPresentable, specialsService: SpecialsService) {
        self.presenter = presenter
        self.specialsService = specialsService
    }

    func didBecomeActive() async {
        task { [specialsService, presenter] in
            let specials = Observations { @MainActor in specialsService.specials }
            for await list in specials {
                await presenter.present(specials: list)
                // Observations is not a napkin broadcaster, so say that the
                // loop now only waits: a login that attached this napkin
                // answers at once instead of at the settle timeout.
                Settlement.awaitingInput()
            }
        }
    }
}
