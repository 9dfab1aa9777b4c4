@_spi(Napkin) import NapkinSupport

/// A builder whose component lives across several stages of one build: a
/// parent can read ``componentForCurrentBuildPass`` (to build children, or
/// to prepare values) before it finishes with ``finalStageBuild(withDynamicDependency:)``.
///
/// The final stage ends the pass: the next pass gets a fresh component.
@MainActor
open class MultiStageComponentizedBuilder<ComponentType, RouterType, DynamicBuildDependency>: Buildable {
    private let componentBuilder: () -> ComponentType
    private var currentComponent: ComponentType?

    /// Creates a builder that makes each pass's component with `componentBuilder`.
    public init(componentBuilder: @escaping () -> ComponentType) {
        self.componentBuilder = componentBuilder
    }

    /// The component of the pass in progress, made on first read and kept
    /// until the final stage.
    public final var componentForCurrentBuildPass: ComponentType {
        if let currentComponent { return currentComponent }
        let component = componentBuilder()
        currentComponent = component
        return component
    }

    /// Finishes the pass: builds the router from this pass's component and
    /// forgets the component.
    public final func finalStageBuild(withDynamicDependency dynamicDependency: DynamicBuildDependency) async -> RouterType {
        let component = componentForCurrentBuildPass
        currentComponent = nil
        return await finalStageBuild(with: component, dynamicDependency)
    }

    /// Makes the napkin from the pass's component. Subclasses must override it.
    open func finalStageBuild(with component: ComponentType, _ dynamicDependency: DynamicBuildDependency) async -> RouterType {
        fatalError("\(type(of: self)) must override finalStageBuild(with:_:)")
    }
}

/// A ``MultiStageComponentizedBuilder`` with no build-time values.
open class SimpleMultiStageComponentizedBuilder<ComponentType, RouterType>: MultiStageComponentizedBuilder<ComponentType, RouterType, Void> {
    /// Finishes the pass and returns the router.
    public final func finalStageBuild() async -> RouterType {
        await finalStageBuild(withDynamicDependency: ())
    }

    /// Calls ``finalStageBuild(with:)``: there is no build-time value to pass.
    override public final func finalStageBuild(with component: ComponentType, _ dynamicDependency: Void) async -> RouterType {
        await finalStageBuild(with: component)
    }

    /// Makes the napkin from the pass's component. Subclasses must override it.
    open func finalStageBuild(with component: ComponentType) async -> RouterType {
        fatalError("\(type(of: self)) must override finalStageBuild(with:)")
    }
}
