/// A type that builds a napkin. Feature builders refine it with their own
/// `build` method, whose parameters are what the napkin needs at build time.
public protocol Buildable: AnyObject, Sendable {}

/// The base of a napkin's builder: it holds the parent's dependency and
/// builds the napkin's component, interactor, presenter, view and router.
///
/// Builders are nonisolated: they may be created anywhere. A builder's
/// `build` is usually `@MainActor async`, because routers and views live on
/// the main actor and wiring an interactor is an `await` on its actor.
open class Builder<DependencyType: Sendable>: Buildable, @unchecked Sendable {
    // Safe to share: the only stored property is immutable and `Sendable`.

    /// What this napkin needs from its parent.
    public let dependency: DependencyType

    /// Creates a builder over the parent's dependency.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
