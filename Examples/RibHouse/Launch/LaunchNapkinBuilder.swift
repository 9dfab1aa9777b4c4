import NapkinWeb

/// What the Launch napkin needs: the session's guest, and what its
/// children need (it passes its dependency on, owning nothing itself).
protocol LaunchNapkinDependency: SessionDependency {
    var authService: any AuthService { get }
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
