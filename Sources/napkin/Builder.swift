/// A type that builds a napkin. Feature builders add their own `build`
/// method, whose parameters are what the napkin needs at build time (its
/// listener, a value chosen by the parent).
///
/// Builders are nonisolated and `Sendable`: a parent may keep one and call
/// it from any isolation. A `build` that makes views or routers is marked
/// `@MainActor`, where those live.
public protocol Buildable: AnyObject, Sendable {}

/// The base of a napkin's builder: it holds the parent's dependency and
/// builds the napkin's component, presenter, interactor, view and router.
///
/// A builder is nonisolated dependency plumbing; its `build` is `@MainActor`
/// because it makes the router and the view, and `async` when it wires the
/// interactor (an actor) after making the router:
///
/// ```swift
/// final class HomeBuilder: Builder<any HomeDependency>, @unchecked Sendable {
///     // Safe to share: no state besides the immutable dependency.
///     @MainActor
///     func build(listener: any HomeListener) -> ViewableRouter<HomeInteractor, HomeView> {
///         let presenter = HomePresenter()
///         let interactor = HomeInteractor(presenter: presenter, listener: listener)
///         return ViewableRouter(interactor: interactor, viewController: HomeView(presenter: presenter, listener: interactor))
///     }
/// }
/// ```
///
/// Swift asks a subclass of an `@unchecked Sendable` class to restate that
/// conformance: keep a builder's stored properties immutable and `Sendable`.
open class Builder<DependencyType: Sendable>: Buildable, @unchecked Sendable {
    // Safe to share: its one stored property is immutable and Sendable.

    /// What this napkin needs from its parent.
    public let dependency: DependencyType

    /// Creates a builder over the parent's dependency.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
