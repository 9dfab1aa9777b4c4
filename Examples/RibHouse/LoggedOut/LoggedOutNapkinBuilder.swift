import NapkinWeb
import napkin

/// LoggedOut needs nothing from above: it only reports a name upward.
protocol LoggedOutNapkinDependency: Dependency {}

/// Builds the signed-out screen: the name form. A leaf with no state of its
/// own (napkin keeps a refused name's message), so it has neither a router
/// class nor a presenter.
final class LoggedOutNapkinBuilder: Builder<any LoggedOutNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build(listener: any LoggedOutNapkinListener) -> ViewableRouter<LoggedOutNapkinInteractor, LoggedOutNapkinViewController> {
        let interactor = LoggedOutNapkinInteractor(listener: listener)
        return ViewableRouter(interactor: interactor, viewController: LoggedOutNapkinViewController(listener: interactor))
    }
}
