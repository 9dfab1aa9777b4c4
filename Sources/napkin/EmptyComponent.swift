/// The component at the top of a tree: it has no parent, so its dependency
/// is empty. Subclass it (or `Component<any EmptyDependency>`) for an
/// app-wide component that owns shared services.
open class EmptyComponent: EmptyDependency, @unchecked Sendable {
    // Safe to share: it has no state.

    /// Creates the empty root component.
    public init() {}
}

extension Component where DependencyType == any EmptyDependency {
    /// Creates a root component, whose parent dependency is empty:
    /// `final class AppComponent: Component<any EmptyDependency>` needs no
    /// initializer of its own.
    public convenience init() {
        self.init(dependency: EmptyComponent())
    }
}
