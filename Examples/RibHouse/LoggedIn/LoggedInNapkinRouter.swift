import NapkinWeb
import napkin

/// Specials are always on; the Pit Board is attached at `/pit` and detached
/// everywhere else, which ends its subscription to the pit.
final class LoggedInNapkinRouter: ViewableRouter<LoggedInNapkinInteractor, LoggedInNapkinViewController>, WebRouting {
    private let specialsBuilder: SpecialsNapkinBuilder
    private let pitBoardBuilder: PitBoardNapkinBuilder

    init(
        interactor: LoggedInNapkinInteractor, viewController: LoggedInNapkinViewController,
        specialsBuilder: SpecialsNapkinBuilder, pitBoardBuilder: PitBoardNapkinBuilder
    ) {
        self.specialsBuilder = specialsBuilder
        self.pitBoardBuilder = pitBoardBuilder
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        await attach(specialsBuilder.build(), in: "specials")
    }

    func navigate(to path: WebPath) async -> Bool {
        switch Page(path) {
        case .menu:
            await detachChild(in: "pitboard")
        case .pitBoard:
            if child(in: "pitboard") == nil { await attach(pitBoardBuilder.build(), in: "pitboard") }
        case nil:
            return false
        }
        return true
    }
}
