import NapkinWeb

/// What the Launch napkin needs: the session's guest, and the app's scope
/// for its children.
protocol LaunchNapkinDependency: Dependency {
    var authService: any AuthService { get }
    var app: any SessionDependency { get }
}

/// Builds the root of one tab's tree. napkin calls it once per new tab,
/// with the session's scope.
final class LaunchNapkinBuilder: Builder<any LaunchNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build() async -> LaunchNapkinRouter {
        let presenter = LaunchNapkinPresenter()
        let interactor = LaunchNapkinInteractor(presenter: presenter, authService: dependency.authService)
        let router = LaunchNapkinRouter(
            interactor: interactor,
            viewController: LaunchNapkinViewController(presenter: presenter, listener: interactor),
            dependency: dependency)
        // The one ring wired after building: the router exists only after its interactor.
        await interactor.wire(router: router)
        return router
    }
}
