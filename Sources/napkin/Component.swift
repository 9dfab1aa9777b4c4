@_spi(Napkin) import NapkinSupport

/// A dependency-injection scope: the `Component` of a napkin provides what
/// the napkin and its children need.
///
/// Subclass it per napkin, read the parent's values through `dependency`, and
/// make scope-wide singletons with ``shared(forCallerKey:_:)``:
///
/// ```swift
/// final class HomeComponent: Component<any HomeDependency>, ChildDependency, @unchecked Sendable {
///     // Safe to share: no stored state of its own.
///     var userService: UserService { shared { UserService(api: dependency.api) } }
/// }
/// ```
///
/// Components are nonisolated and `Sendable`, like builders: any task may
/// read them, and `shared` makes one instance per key even when many ask at
/// once. Swift asks a subclass to restate `@unchecked Sendable`: keep its
/// stored properties immutable and `Sendable`, and hand an interactor the
/// values it needs, not the component.
open class Component<DependencyType: Sendable>: Dependency, @unchecked Sendable {
    // Safe to share: `dependency` is immutable and Sendable; the instances
    // live behind `slots`' lock and each slot's own.

    /// The parent's dependency, for this component to read and forward.
    public let dependency: DependencyType

    /// One slot per key; a slot's own lock is held while its factory runs,
    /// so concurrent first reads of a key wait for one factory, while a
    /// factory may read other keys.
    private let slots = Locked(SmallMap<String, Slot>())

    private final class Slot: Sendable {
        let instance = Locked<(any Sendable)?>(nil)
    }

    /// Creates a component on top of its parent's dependency.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }

    /// Returns the one instance of this component for `key`, making it with
    /// `factory` on first use.
    ///
    /// Call it as `shared { ... }` from a computed property: the key defaults
    /// to the property's name. The factory runs once per key, however many
    /// tasks ask at once; it may read other `shared` properties of the
    /// component (never its own).
    public final func shared<T: Sendable>(forCallerKey key: String = #function, _ factory: () -> T) -> T {
        let slot = slots.withLock { slots in
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        return slot.instance.withLock { instance in
            if let existing = instance as? T { return existing }
            let made = factory()
            instance = made
            return made
        }
    }
}
