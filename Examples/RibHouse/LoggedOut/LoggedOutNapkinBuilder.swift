import napkin

/// LoggedOut needs nothing from above: it only reports a name upward.
protocol LoggedOutNapkinDependency: Dependency {}

protocol LoggedOutNapkinBuildable: Buildable {
    @MainActor func build(withListener listener: any LoggedOutNapkinListener) async -> any LoggedOutNapkinRouting
}

/// Builds the signed-out screen: the name form.
final class LoggedOutNapkinBuilder: Builder<any LoggedOutNapkinDependency>, LoggedOutNapkinBuildable, @unchecked Sendable {
    // Safe to share: `Builder` holds only the immutable dependency.

    @MainActor
    func build(withListener listener: any LoggedOutNapkinListener) async -> any LoggedOutNapkinRouting {
        let viewController = LoggedOutNapkinViewController()
        let presenter = LoggedOutNapkinPresenter(viewController: viewController)
        viewController.presenter = presenter
        let interactor = LoggedOutNapkinInteractor(presenter: presenter)
        viewController.listener = interactor
        let router = LoggedOutNapkinRouter(interactor: interactor, viewController: viewController)
        await interactor.wire(listener: listener)
        return router
    }
}
