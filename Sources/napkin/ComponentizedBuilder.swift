/// A builder that makes a fresh component for every build, from a closure
/// that can take a value known only at build time.
///
/// Override ``build(with:_:)``; callers use
/// ``build(withDynamicBuildDependency:dynamicComponentDependency:)``. Like
/// every builder it is nonisolated and `Sendable`, and builds on the main
/// actor.
open class ComponentizedBuilder<ComponentType, RouterType, DynamicBuildDependency, DynamicComponentDependency>: Buildable,
    @unchecked Sendable
{
    // Safe to share: its one stored property is an immutable Sendable closure.
    private let componentBuilder: @Sendable (DynamicComponentDependency) -> ComponentType

    /// Creates a builder that makes each build's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable (DynamicComponentDependency) -> ComponentType) {
        self.componentBuilder = componentBuilder
    }

    /// Builds the napkin and returns its router.
    @MainActor
    public final func build(
        withDynamicBuildDependency dynamicBuildDependency: DynamicBuildDependency,
        dynamicComponentDependency: DynamicComponentDependency
    ) async -> RouterType {
        await buildWithComponent(
            withDynamicBuildDependency: dynamicBuildDependency,
            dynamicComponentDependency: dynamicComponentDependency
        ).router
    }

    /// Builds the napkin and returns both its new component and its router,
    /// for parents that keep the component to build further children.
    @MainActor
    public final func buildWithComponent(
        withDynamicBuildDependency dynamicBuildDependency: DynamicBuildDependency,
        dynamicComponentDependency: DynamicComponentDependency
    ) async -> (component: ComponentType, router: RouterType) {
        let component = componentBuilder(dynamicComponentDependency)
        let router = await build(with: component, dynamicBuildDependency)
        return (component, router)
    }

    /// Makes the napkin from its component. Subclasses must override it.
    @MainActor
    open func build(with component: ComponentType, _ dynamicBuildDependency: DynamicBuildDependency) async -> RouterType {
        fatalError("\(type(of: self)) must override build(with:_:)")
    }
}

/// A ``ComponentizedBuilder`` with no build-time values.
open class SimpleComponentizedBuilder<ComponentType, RouterType>: ComponentizedBuilder<ComponentType, RouterType, Void, Void>,
    @unchecked Sendable
{
    // Safe to share: adds no stored state.

    /// Creates a builder that makes each build's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable () -> ComponentType) {
        super.init(componentBuilder: { _ in componentBuilder() })
    }

    /// Builds the napkin and returns its router.
    @MainActor
    public final func build() async -> RouterType {
        await build(withDynamicBuildDependency: (), dynamicComponentDependency: ())
    }

    /// Calls ``build(with:)``: there is no build-time value to pass.
    @MainActor
    override public final func build(with component: ComponentType, _ dynamicBuildDependency: Void) async -> RouterType {
        await build(with: component)
    }

    /// Makes the napkin from its component. Subclasses must override it.
    @MainActor
    open func build(with component: ComponentType) async -> RouterType {
        fatalError("\(type(of: self)) must override build(with:)")
    }
}
