import NapkinSupport

/// A builder whose component lives across several stages of one build: a
/// parent can read ``componentForCurrentBuildPass`` (to build children, or
/// to prepare values) before it finishes with ``finalStageBuild(withDynamicDependency:)``.
///
/// The final stage ends the pass: the next pass gets a fresh component.
open class MultiStageComponentizedBuilder<ComponentType: Sendable, RouterType, DynamicBuildDependency>:
    Buildable, @unchecked Sendable
{
    // Safe to share: `currentComponent` is a `Locked` (pthread mutex); the closure is immutable.

    private let componentBuilder: @Sendable () -> ComponentType
    private let currentComponent = Locked<ComponentType?>(nil)

    /// Creates a builder that makes each pass's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable () -> ComponentType) {
        self.componentBuilder = componentBuilder
    }

    /// The component of the pass in progress, made on first read and kept
    /// until the final stage.
    public final var componentForCurrentBuildPass: ComponentType {
        currentComponent.withLock { current in
            if let component = current { return component }
            let component = componentBuilder()
            current = component
            return component
        }
    }

    /// Finishes the pass: builds the router from this pass's component and
    /// forgets the component.
    @MainActor
    public final func finalStageBuild(withDynamicDependency dynamicDependency: DynamicBuildDependency) async -> RouterType {
        let component = componentForCurrentBuildPass
        currentComponent.withLock { $0 = nil }
        return await finalStageBuild(with: component, dynamicDependency)
    }

    /// Makes the napkin from the pass's component. Subclasses must override it.
    @MainActor
    open func finalStageBuild(with component: ComponentType, _ dynamicDependency: DynamicBuildDependency) async -> RouterType {
        fatalError("\(type(of: self)) must override finalStageBuild(with:_:)")
    }
}

/// A ``MultiStageComponentizedBuilder`` with no build-time values.
open class SimpleMultiStageComponentizedBuilder<ComponentType: Sendable, RouterType>:
    MultiStageComponentizedBuilder<ComponentType, RouterType, Void>, @unchecked Sendable
{
    // Safe to share: adds no stored state.

    /// Finishes the pass and returns the router.
    @MainActor
    public final func finalStageBuild() async -> RouterType {
        await finalStageBuild(withDynamicDependency: ())
    }

    @MainActor
    override public final func finalStageBuild(with component: ComponentType, _ dynamicDependency: Void) async -> RouterType {
        await finalStageBuild(with: component)
    }

    /// Makes the napkin from the pass's component. Subclasses must override it.
    @MainActor
    open func finalStageBuild(with component: ComponentType) async -> RouterType {
        fatalError("\(type(of: self)) must override finalStageBuild(with:)")
    }
}
