/// What a napkin needs from its parent, declared as a protocol of read-only
/// properties that the parent's component satisfies.
///
/// Dependencies live on the main actor with the builders and components
/// that pass them along; an interactor receives the values it needs in its
/// initializer, never the dependency itself.
@MainActor
public protocol Dependency: AnyObject, Sendable {}

/// The dependency of a root napkin: it needs nothing from a parent.
public protocol EmptyDependency: Dependency {}
