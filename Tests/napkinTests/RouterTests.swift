import Testing
import napkin

@Suite("Router", .timeLimit(.minutes(1)))
@MainActor
struct RouterTests {
    @Test("attachChild activates the child, then loads it; didLoad runs once")
    func attachActivatesThenLoads() async {
        let tree = TestTree()
        let parent = tree.make("parent")
        let child = tree.make("child")
        await parent.attachChild(child)
        #expect(tree.log.all == ["child.active", "child.loaded"])
        #expect(child.interactor.isActive)
        #expect(parent.children.count == 1)

        await parent.detachChild(child)
        await parent.attachChild(child)
        #expect(tree.log.count(of: "child.loaded") == 1)
        #expect(tree.log.count(of: "child.active") == 2)
    }

    @Test("attaching a child twice is a no-op with a diagnostic")
    func doubleAttach() async {
        let tree = TestTree()
        let parent = tree.make("parent")
        let child = tree.make("child")
        let diagnostics = EventLog()
        await Diagnostics.$handler.withValue({ diagnostics.append($0) }) {
            await parent.attachChild(child)
            await parent.attachChild(child)
        }
        #expect(parent.children.count == 1)
        #expect(tree.log.count(of: "child.active") == 1)
        #if DEBUG
        #expect(diagnostics.all.count == 1)
        #expect(diagnostics.all.first?.contains("already attached") == true)
        #endif
    }

    @Test("a router with many children still refuses a second attach and a stranger's detach, as it grows and shrinks")
    func manyChildren() async {
        let tree = TestTree()
        let parent = tree.make("parent")
        let children = (0..<20).map { tree.make("child\($0)") }
        let stranger = tree.make("stranger")
        for child in children { await parent.attachChild(child) }
        // Past a few children the router looks them up by identity; both
        // ways of looking must agree.
        for count in [20, 9, 8, 3] {
            while parent.children.count > count { await parent.detachChild(children[parent.children.count - 1]) }
            await parent.attachChild(children[0])
            await parent.detachChild(stranger)
            #expect(parent.children.count == count)
            #expect(tree.log.count(of: "child0.active") == 1)
        }
        for child in children.prefix(3) { await parent.detachChild(child) }
        #expect(parent.children.isEmpty)
        #expect(children.allSatisfy { !$0.interactor.isActive })
    }

    @Test("detaching a router that is not a child is a no-op with a diagnostic")
    func detachStranger() async {
        let tree = TestTree()
        let parent = tree.make("parent")
        let other = tree.make("other")
        let stranger = tree.make("stranger")
        await other.attachChild(stranger)
        let diagnostics = EventLog()
        await Diagnostics.$handler.withValue({ diagnostics.append($0) }) {
            await parent.detachChild(stranger)
        }
        #expect(stranger.interactor.isActive)
        #expect(other.children.count == 1)
        #expect(!tree.log.all.contains("stranger.inactive"))
        #if DEBUG
        #expect(diagnostics.all.first?.contains("not a child") == true)
        #endif
    }

    @Test("detaching deactivates the child, then its subtree (the last attached first), then removes it")
    func detachIsChildFirst() async {
        let tree = TestTree()
        let root = tree.make("root")
        let middle = tree.make("middle") { router in
            await router.attachChild(tree.make("leafA"))
            await router.attachChild(tree.make("leafB"))
        }
        await root.attachChild(middle)
        await root.detachChild(middle)
        let resigns = tree.log.all.filter { $0.hasSuffix(".inactive") }
        #expect(resigns == ["middle.inactive", "leafB.inactive", "leafA.inactive"])
        #expect(root.children.isEmpty)
        #expect(middle.children.allSatisfy { !$0.interactable.isActive })
    }

    @Test("a child's willResignActive runs while it is still attached and its own children still active")
    func willResignActiveRunsBeforeRemoval() async {
        let tree = TestTree()
        let parent = tree.make("parent")
        let grandchild = tree.make("grandchild")
        let seen = EventLog()
        let place = RouterPlace()
        let child = Router(interactor: ProbeInteractor { @MainActor in
            guard let child = place.router else { return }
            seen.append(parent.children.contains { $0 === child } ? "attached" : "removed")
            seen.append(grandchild.interactor.isActive ? "grandchild active" : "grandchild inactive")
        })
        place.router = child
        await parent.attachChild(child)
        await child.attachChild(grandchild)
        await parent.detachChild(child)
        #expect(seen.all == ["attached", "grandchild active"])
        #expect(parent.children.isEmpty)
        #expect(!grandchild.interactor.isActive)
    }

    @Test("a detached 3-level tree is released completely")
    func detachedTreeIsReleased() async throws {
        let tree = TestTree()
        let root = tree.make("root")
        var routers: [Weak<TestRouter>] = []
        var interactors: [WeakActor<TestInteractor>] = []
        var presenters: [Weak<TestPresenter>] = []
        do {
            let level1 = tree.make("level1")
            let level2 = tree.make("level2")
            let level3 = tree.make("level3")
            await root.attachChild(level1)
            await level1.attachChild(level2)
            await level2.attachChild(level3)
            await tree.ticks.send(1)
            for router in [level1, level2, level3] {
                routers.append(Weak(router))
                interactors.append(WeakActor(router.interactor))
                presenters.append(Weak(router.interactor.presenter))
            }
            await root.detachChild(level1)
        }
        try await tree.tasks.waitForAll()
        #expect(routers.allSatisfy { $0.value == nil })
        #expect(interactors.allSatisfy { $0.value == nil })
        #expect(presenters.allSatisfy { $0.value == nil })
        #expect(await tree.ticks.subscriberCount == 0)
    }

    @Test("a launched tree can be terminated: every interactor deactivated, top down, before it returns")
    func launchAndTerminate() async {
        let tree = TestTree()
        let host = TestHost()
        let viewController = TestViewController()
        let presenter = TestPresenter(viewController: viewController)
        let interactor = TestInteractor(name: "launch", presenter: presenter, log: tree.log, tasks: tree.tasks, ticks: tree.ticks)
        let launch = TestLaunchRouter(interactor: interactor, viewController: viewController)
        let child = tree.make("child")
        await launch.launch(from: host)
        await launch.attachChild(child)
        #expect(host.root === viewController)
        #expect(interactor.isActive && child.interactor.isActive)
        await launch.terminate()
        #expect(!interactor.isActive && !child.interactor.isActive)
        #expect(tree.log.all.suffix(2) == ["launch.inactive", "child.inactive"])
    }
}

@MainActor
final class TestHost: LaunchHost {
    var root: (any ViewControllable)?
    func setRootViewControllable(_ viewControllable: any ViewControllable) { root = viewControllable }
}

@MainActor
final class TestLaunchRouter: LaunchRouter<TestInteractor, TestViewController> {}

struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

struct WeakActor<T: Actor> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

/// An interactor that runs `onResign` in its `willResignActive()`.
final actor ProbeInteractor: Interactable {
    /// Stored, so that releasing the interactor releases it at once.
    nonisolated let lifecycle = InteractorLifecycle()
    private let onResign: @Sendable () async -> Void

    init(onResign: @escaping @Sendable () async -> Void) {
        self.onResign = onResign
    }

    func willResignActive() async {
        await onResign()
    }
}

/// Where a test keeps a router that a closure made before it needs to see.
@MainActor
final class RouterPlace {
    weak var router: (any Routing)?
}
