import Testing
import napkin

final class Service: Sendable {
    let dependency: Service?
    init(dependency: Service? = nil) { self.dependency = dependency }
}

final class CountingComponent: Component<any EmptyDependency> {
    private(set) var factoryRuns = 0

    var base: Service {
        shared {
            factoryRuns += 1
            return Service()
        }
    }

    var derived: Service {
        shared { Service(dependency: base) }
    }

    var fresh: Service { Service() }
}

protocol ChildDependency: Dependency {
    var base: Service { get }
}

extension CountingComponent: ChildDependency {}

private final class ChildComponent: Component<any ChildDependency> {
    var inherited: Service { dependency.base }
}

@Suite("Component", .timeLimit(.minutes(1)))
@MainActor
struct ComponentTests {
    @Test("shared runs its factory once per key, however many tasks read it")
    func sharedIsOncePerKey() async {
        let component = CountingComponent()
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 {
                group.addTask { @MainActor in ObjectIdentifier(component.base) }
            }
            var identities = Set<ObjectIdentifier>()
            for await identity in group { identities.insert(identity) }
            return identities
        }
        #expect(identities.count == 1)
        #expect(component.factoryRuns == 1)
    }

    @Test("a shared factory may read another shared property of the same component")
    func sharedFactoryReadsAnotherShared() {
        let component = CountingComponent()
        let derived = component.derived
        #expect(component.factoryRuns == 1)
        #expect(derived.dependency === component.base)
        #expect(component.derived === derived)
    }

    @Test("unshared properties make a new instance on each read")
    func unsharedIsFresh() {
        let component = CountingComponent()
        #expect(component.fresh !== component.fresh)
    }

    @Test("a child component reads its parent's shared instance through its dependency")
    func childSeesParentScope() {
        let parent = CountingComponent()
        let child = ChildComponent(dependency: parent)
        #expect(child.inherited === parent.base)
    }

    @Test("a component subclass is Sendable with no @unchecked: it can cross into a task")
    func componentsAreSendable() async {
        let component = CountingComponent()
        let identity = await Task.detached { await ObjectIdentifier(component.base) }.value
        #expect(identity == ObjectIdentifier(component.base))
    }
}
