import Testing
import napkin

private final class LeafComponent: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

private final class LeafBuilder: ComponentizedBuilder<LeafComponent, String, Int, String>, @unchecked Sendable {
    // Safe to share: adds no stored state.
    override func build(with component: LeafComponent, _ dynamicBuildDependency: Int) async -> String {
        "\(component.label)#\(dynamicBuildDependency)"
    }
}

private final class SimpleLeafBuilder: SimpleComponentizedBuilder<LeafComponent, String>, @unchecked Sendable {
    // Safe to share: adds no stored state.
    override func build(with component: LeafComponent) async -> String {
        component.label
    }
}

private final class StagedBuilder: SimpleMultiStageComponentizedBuilder<LeafComponent, String>, @unchecked Sendable {
    // Safe to share: adds no stored state.
    override func finalStageBuild(with component: LeafComponent) async -> String {
        component.label
    }
}

protocol GaugeDependency: Dependency {
    var unit: String { get }
}

/// A feature's builder protocol, shaped as the reference shapes it.
protocol GaugeBuildable: Buildable {
    @MainActor func build(reading: Int) -> String
}

private final class GaugeParentComponent: Component<any EmptyDependency>, GaugeDependency, @unchecked Sendable {
    // Safe to share: no stored state of its own.
    var unit: String { "°F" }
}

private final class GaugeBuilder: Builder<any GaugeDependency>, GaugeBuildable, @unchecked Sendable {
    // Safe to share: no stored state besides the immutable dependency.
    @MainActor
    func build(reading: Int) -> String { "\(reading) \(dependency.unit)" }
}

@Suite("Builders", .timeLimit(.minutes(1)))
@MainActor
struct BuilderTests {
    @Test("a builder is Sendable: it crosses isolation, and builds on the main actor from its dependency")
    func builderCrossesIsolation() async {
        let builder: any GaugeBuildable = GaugeBuilder(dependency: GaugeParentComponent())
        let handedBack = await Task.detached { builder }.value
        #expect(handedBack === builder)
        #expect(handedBack.build(reading: 225) == "225 °F")
    }

    @Test("a componentized builder makes a fresh component per build from the dynamic dependency")
    func componentizedBuilder() async {
        let builder = LeafBuilder { LeafComponent(label: $0) }
        let first = await builder.buildWithComponent(withDynamicBuildDependency: 1, dynamicComponentDependency: "a")
        let second = await builder.buildWithComponent(withDynamicBuildDependency: 2, dynamicComponentDependency: "b")
        #expect(first.router == "a#1")
        #expect(second.router == "b#2")
        #expect(first.component !== second.component)
    }

    @Test("componentized and multi-stage builders are Buildable: they cross isolation and still build")
    func componentizedBuildersCrossIsolation() async {
        let builders: [any Buildable] = [
            SimpleLeafBuilder { LeafComponent(label: "leaf") },
            StagedBuilder { LeafComponent(label: "staged") },
        ]
        let handedBack = await Task.detached { builders }.value
        let simple = try? #require(handedBack[0] as? SimpleLeafBuilder)
        let staged = try? #require(handedBack[1] as? StagedBuilder)
        #expect(await simple?.build() == "leaf")
        #expect(await staged?.finalStageBuild() == "staged")
    }

    @Test("a simple componentized builder needs no dynamic values")
    func simpleBuilder() async {
        let builder = SimpleLeafBuilder { LeafComponent(label: "leaf") }
        #expect(await builder.build() == "leaf")
    }

    @Test("a multi-stage builder keeps its component until the final stage")
    func multiStage() async {
        let builder = StagedBuilder { LeafComponent(label: "staged") }
        let early = builder.componentForCurrentBuildPass
        #expect(builder.componentForCurrentBuildPass === early)
        #expect(await builder.finalStageBuild() == "staged")
        #expect(builder.componentForCurrentBuildPass !== early)
    }
}
