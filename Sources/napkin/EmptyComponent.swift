/// The component at the top of a tree: it has no parent, so its dependency
/// is empty. Subclass it (or `Component<EmptyComponent>`) for an app-wide
/// component that owns shared services.
open class EmptyComponent: EmptyDependency, @unchecked Sendable {
    // Safe to share: it has no stored state.

    /// Creates the empty root component.
    public init() {}
}
