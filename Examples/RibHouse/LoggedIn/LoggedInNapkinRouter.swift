import NapkinWeb

/// The Pit Board is attached at `/pit` and detached everywhere else, which
/// ends its subscription to the pit.
final class LoggedInNapkinRouter: ViewableRouter<LoggedInNapkinInteractor, LoggedInNapkinViewController>, WebRouting {
    private let pitBoardBuilder: PitBoardNapkinBuilder

    init(interactor: LoggedInNapkinInteractor, viewController: LoggedInNapkinViewController, dependency: any LoggedInNapkinDependency) {
        pitBoardBuilder = PitBoardNapkinBuilder(dependency: dependency)
        super.init(interactor: interactor, viewController: viewController)
    }

    func navigate(to path: WebPath) async -> Bool {
        switch Page(path) {
        case .menu:
            await detachChild(in: "pitboard")
        case .pitBoard:
            await attachIfNeeded(in: "pitboard") { pitBoardBuilder.build() }
        case nil:
            return false
        }
        return true
    }
}
