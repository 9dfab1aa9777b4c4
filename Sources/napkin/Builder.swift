/// A type that builds a napkin. Feature builders add their own `build`
/// method, whose parameters are what the napkin needs at build time (its
/// listener, a value chosen by the parent).
@MainActor
public protocol Buildable: AnyObject, Sendable {}

/// The base of a napkin's builder: it holds the parent's dependency and
/// builds the napkin's component, presenter, interactor, view and router.
///
/// Builders live on the main actor, where routers and views live, so a
/// subclass is `Sendable` as it stands and its `build` needs no `await`:
///
/// ```swift
/// final class HomeBuilder: Builder<any HomeDependency> {
///     func build(listener: any HomeListener) -> ViewableRouter<HomeInteractor, HomeView> {
///         let presenter = HomePresenter()
///         let interactor = HomeInteractor(presenter: presenter, listener: listener)
///         return ViewableRouter(interactor: interactor, viewController: HomeView(presenter: presenter, listener: interactor))
///     }
/// }
/// ```
@MainActor
open class Builder<DependencyType>: Buildable {
    /// What this napkin needs from its parent.
    public let dependency: DependencyType

    /// Creates a builder over the parent's dependency.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
