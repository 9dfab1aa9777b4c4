/// A builder whose component lives across several stages of one build: a
/// parent can read ``componentForCurrentBuildPass`` (to build children, or
/// to prepare values) before it finishes with ``finalStageBuild(withDynamicDependency:)``.
///
/// The final stage ends the pass: the next pass gets a fresh component.
/// The builder is nonisolated and `Sendable`; its passes run on the main
/// actor, which keeps the pass in progress.
open class MultiStageComponentizedBuilder<ComponentType, RouterType, DynamicBuildDependency>: Buildable, @unchecked Sendable {
    // Safe to share: the closure is immutable and Sendable; the pass in
    // progress is main-actor state.
    private let componentBuilder: @Sendable () -> ComponentType
    @MainActor private var currentComponent: ComponentType?

    /// Creates a builder that makes each pass's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable () -> ComponentType) {
        self.componentBuilder = componentBuilder
    }

    /// The component of the pass in progress, made on first read and kept
    /// until the final stage.
    @MainActor
    public final var componentForCurrentBuildPass: ComponentType {
        if let currentComponent { return currentComponent }
        let component = componentBuilder()
        currentComponent = component
        return component
    }

    /// Finishes the pass: builds the router from this pass's component and
    /// forgets the component.
    @MainActor
    public final func finalStageBuild(withDynamicDependency dynamicDependency: DynamicBuildDependency) async -> RouterType {
        let component = componentForCurrentBuildPass
        currentComponent = nil
        return await finalStageBuild(with: component, dynamicDependency)
    }

    /// Makes the napkin from the pass's component. Subclasses must override it.
    @MainActor
    open func finalStageBuild(with component: ComponentType, _ dynamicDependency: DynamicBuildDependency) async -> RouterType {
        fatalError("\(type(of: self)) must override finalStageBuild(with:_:)")
    }
}

/// A ``MultiStageComponentizedBuilder`` with no build-time values.
open class SimpleMultiStageComponentizedBuilder<ComponentType, RouterType>: MultiStageComponentizedBuilder<ComponentType, RouterType, Void>,
    @unchecked Sendable
{
    // Safe to share: adds no stored state.

    /// Finishes the pass and returns the router.
    @MainActor
    public final func finalStageBuild() async -> RouterType {
        await finalStageBuild(withDynamicDependency: ())
    }

    /// Calls ``finalStageBuild(with:)``: there is no build-time value to pass.
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
