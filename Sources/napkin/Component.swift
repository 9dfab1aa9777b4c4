import NapkinSupport

/// A dependency-injection scope: the `Component` of a napkin provides what
/// the napkin and its children need.
///
/// Subclass it per napkin, read the parent's values through `dependency`, and
/// make scope-wide singletons with ``shared(forCallerKey:_:)``:
///
/// ```swift
/// final class HomeComponent: Component<any HomeDependency>, @unchecked Sendable {
///     var userService: UserService { shared { UserService(api: dependency.api) } }
/// }
/// ```
///
/// A component is read from builders, interactors and routers at once, so
/// `shared` is thread-safe: each factory runs at most once per component and
/// key, however many callers race for it.
open class Component<DependencyType: Sendable>: Dependency, @unchecked Sendable {
    // Safe to share: `dependency` is immutable and `cells` is a `Locked` (pthread mutex).

    /// The parent's dependency, for this component to read and forward.
    public let dependency: DependencyType

    private let cells = Locked<[String: SharedInstanceCell]>([:])

    /// Creates a component on top of its parent's dependency.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }

    /// Returns the one instance of this component for `key`, making it with
    /// `factory` on first use.
    ///
    /// Call it as `shared { ... }` from a computed property: the key defaults
    /// to the property's name. Callers of other keys never wait on this
    /// factory, and the factory may itself read other `shared` properties.
    public final func shared<T>(forCallerKey key: String = #function, _ factory: () -> T) -> T {
        let cell = cells.withLock { cells in
            if let cell = cells[key] { return cell }
            let cell = SharedInstanceCell()
            cells[key] = cell
            return cell
        }
        return cell.value(factory)
    }
}
