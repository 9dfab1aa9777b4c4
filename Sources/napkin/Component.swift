@_spi(Napkin) import NapkinSupport

/// A dependency-injection scope: the `Component` of a napkin provides what
/// the napkin and its children need.
///
/// Subclass it per napkin, read the parent's values through `dependency`, and
/// make scope-wide singletons with ``shared(forCallerKey:_:)``:
///
/// ```swift
/// final class HomeComponent: Component<any HomeDependency>, ChildDependency {
///     var userService: UserService { shared { UserService(api: dependency.api) } }
/// }
/// ```
///
/// Components live on the main actor, with the builders that read them, so
/// a subclass is `Sendable` as it stands: nothing to lock, nothing to vouch
/// for with `@unchecked Sendable`. Hand an interactor the values it needs,
/// not the component.
@MainActor
open class Component<DependencyType>: Dependency {
    /// The parent's dependency, for this component to read and forward.
    public let dependency: DependencyType

    private var instances = SmallMap<String, Any>()

    /// Creates a component on top of its parent's dependency.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }

    /// Returns the one instance of this component for `key`, making it with
    /// `factory` on first use.
    ///
    /// Call it as `shared { ... }` from a computed property: the key defaults
    /// to the property's name. The factory may itself read other `shared`
    /// properties of the component.
    public final func shared<T>(forCallerKey key: String = #function, _ factory: () -> T) -> T {
        if let existing = instances[key] as? T { return existing }
        let made = factory()
        instances[key] = made
        return made
    }
}
