import NapkinWeb
import napkin

@MainActor
protocol LoggedInNapkinRouting: ViewableRouting, WebRouting {}

/// Specials are always on; the Pit Board is attached at `/pit` and detached
/// everywhere else, which cancels its subscription to the pit.
@MainActor
final class LoggedInNapkinRouter: ViewableRouter<LoggedInNapkinInteractor, any LoggedInNapkinViewControllable>, LoggedInNapkinRouting {
    private let specialsBuilder: any SpecialsNapkinBuildable
    private let pitBoardBuilder: any PitBoardNapkinBuildable
    private var pitBoard: (any ViewableRouting)?

    init(
        interactor: LoggedInNapkinInteractor,
        viewController: any LoggedInNapkinViewControllable,
        specialsBuilder: any SpecialsNapkinBuildable,
        pitBoardBuilder: any PitBoardNapkinBuildable
    ) {
        self.specialsBuilder = specialsBuilder
        self.pitBoardBuilder = pitBoardBuilder
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        let specials = await specialsBuilder.build()
        await attachChild(specials)
        viewController.show(specials: specials.viewControllable)
    }

    func navigate(to path: WebPath) async -> Bool {
        switch Page(path) {
        case .menu:
            await routeAwayFromPitBoard()
            return true
        case .pitBoard:
            await routeToPitBoard()
            return true
        case nil:
            return false
        }
    }

    private func routeToPitBoard() async {
        guard pitBoard == nil else { return }
        let router = await pitBoardBuilder.build()
        pitBoard = router
        await attachChild(router)
        viewController.show(pitBoard: router.viewControllable)
    }

    private func routeAwayFromPitBoard() async {
        guard let router = pitBoard else { return }
        pitBoard = nil
        viewController.hidePitBoard()
        await detachChild(router)
    }
}
