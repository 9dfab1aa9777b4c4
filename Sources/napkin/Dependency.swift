/// What a napkin needs from its parent, declared as a protocol of read-only
/// properties that the parent's component satisfies.
///
/// Dependencies are nonisolated and `Sendable`, like the components that
/// satisfy them. A requirement whose value is made on the main actor (a
/// view-layer object) is declared `@MainActor var`; builders read it from
/// their `@MainActor` `build`. An interactor receives the values it needs in
/// its initializer, never the dependency itself.
public protocol Dependency: AnyObject, Sendable {}

/// The dependency of a root napkin: it needs nothing from a parent.
public protocol EmptyDependency: Dependency {}
