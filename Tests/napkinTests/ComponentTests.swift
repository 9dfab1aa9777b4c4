import Testing
import Synchronization
import napkin

final class Service: Sendable {
    let dependency: Service?
    init(dependency: Service? = nil) { self.dependency = dependency }
}

final class CountingComponent: Component<any EmptyDependency>, @unchecked Sendable {
    // Safe to share: its one stored property is atomic.
    let factoryRuns = Atomic(0)

    var base: Service {
        shared {
            factoryRuns.add(1, ordering: .relaxed)
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
    // Safe to share: no stored state of its own.
    var inherited: Service { dependency.base }
}

/// Nonisolated, as components are: no test here runs on the main actor.
@Suite("Component", .timeLimit(.minutes(1)))
struct ComponentTests {
    @Test("shared makes one instance per key when 128 tasks ask at once")
    func sharedIsOncePerKeyUnderConcurrency() async {
        let component = CountingComponent()
        let start = StartLine(parties: 128)
        let identities = await withTaskGroup(of: [ObjectIdentifier].self) { group in
            for _ in 0..<128 {
                group.addTask {
                    // Every task is running before any asks: the asks race.
                    await start.arrive()
                    return [ObjectIdentifier(component.derived), ObjectIdentifier(component.base)]
                }
            }
            var identities: [Set<ObjectIdentifier>] = [[], []]
            for await pair in group {
                identities[0].insert(pair[0])
                identities[1].insert(pair[1])
            }
            return identities
        }
        #expect(identities[0].count == 1)
        #expect(identities[1].count == 1)
        #expect(component.factoryRuns.load(ordering: .relaxed) == 1)
        #expect(component.derived.dependency === component.base)
    }

    @Test("a shared factory may read another shared property of the same component")
    func sharedFactoryReadsAnotherShared() {
        let component = CountingComponent()
        let derived = component.derived
        #expect(component.factoryRuns.load(ordering: .relaxed) == 1)
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

    @Test("a component crosses into a detached task, and both see one instance")
    func componentsAreSendable() async {
        let component = CountingComponent()
        let identity = await Task.detached { ObjectIdentifier(component.base) }.value as ObjectIdentifier
        #expect(identity == ObjectIdentifier(component.base))
    }
}

/// Holds each arriving task until `parties` have arrived, then lets all go.
private actor StartLine {
    private let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) { self.parties = parties }

    func arrive() async {
        if waiting.count + 1 == parties {
            for waiter in waiting { waiter.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
