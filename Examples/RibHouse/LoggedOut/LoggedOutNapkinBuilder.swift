import NapkinWeb
import napkin

/// LoggedOut needs nothing from above: it only reports a name upward.
protocol LoggedOutNapkinDependency: Dependency {}

/// Builds the signed-out screen: the name form. A leaf, so its router is
/// napkin's own `ViewableRouter`.
final class LoggedOutNapkinBuilder: Builder<any LoggedOutNapkinDependency> {
    func build(listener: any LoggedOutNapkinListener) -> ViewableRouter<LoggedOutNapkinInteractor, LoggedOutNapkinViewController> {
        let presenter = LoggedOutNapkinPresenter()
        let interactor = LoggedOutNapkinInteractor(presenter: presenter, listener: listener)
        return ViewableRouter(interactor: interactor, viewController: LoggedOutNapkinViewController(presenter: presenter, listener: interactor))
    }
}
