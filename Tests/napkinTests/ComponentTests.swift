import Synchronization
import Testing
import napkin

final class Service: Sendable {
    let dependency: Service?
    init(dependency: Service? = nil) { self.dependency = dependency }
}

final class CountingComponent: Component<any EmptyDependency>, @unchecked Sendable {
    // Safe to share: the counter is atomic; the rest is the base class's.
    let factoryRuns = Counter()

    var base: Service {
        shared {
            factoryRuns.increment()
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

private final class ChildComponent: Component<any ChildDependency>, @unchecked Sendable {
    // Safe to share: adds no stored state.
    var inherited: Service { dependency.base }
}

@Suite("Component", .timeLimit(.minutes(1)))
struct ComponentTests {
    @Test("shared runs its factory once per key under 200 concurrent callers")
    func sharedIsOncePerKey() async {
        let component = CountingComponent()
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 {
                group.addTask { ObjectIdentifier(component.base) }
            }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(component.factoryRuns.value == 1)
    }

    @Test("a shared factory may read another shared property of the same component")
    func sharedFactoryReadsAnotherShared() async {
        let component = CountingComponent()
        let results = await withTaskGroup(of: (ObjectIdentifier, ObjectIdentifier?).self) { group in
            for index in 0..<100 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? (ObjectIdentifier(component.derived), component.derived.dependency.map(ObjectIdentifier.init))
                        : (ObjectIdentifier(component.base), nil)
                }
            }
            return await group.reduce(into: [(ObjectIdentifier, ObjectIdentifier?)]()) { $0.append($1) }
        }
        #expect(component.factoryRuns.value == 1)
        #expect(component.derived.dependency === component.base)
        #expect(Set(results.compactMap(\.1)) == [ObjectIdentifier(component.base)])
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
}
