/// What a napkin needs from its parent, declared as a protocol of read-only
/// properties that the parent's component satisfies.
///
/// Dependencies cross isolation domains (a builder runs anywhere, an
/// interactor on its own actor), so every dependency is `Sendable`.
public protocol Dependency: AnyObject, Sendable {}

/// The dependency of a root napkin: it needs nothing from a parent.
public protocol EmptyDependency: Dependency {}
