import Synchronization
import Testing
import napkin

/// An interactor whose hooks are scripted by each test.
private final actor ScriptedInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    let ranWork = Counter()
    private(set) var bound: [Task<Void, Never>] = []
    private(set) var lastCall = ""
    var onActive: @Sendable (ScriptedInteractor) async -> Void = { _ in }
    var onResign: @Sendable (ScriptedInteractor) async -> Void = { _ in }

    func setHooks(active: @escaping @Sendable (ScriptedInteractor) async -> Void = { _ in },
                  resign: @escaping @Sendable (ScriptedInteractor) async -> Void = { _ in }) {
        onActive = active
        onResign = resign
    }

    func didBecomeActive() async { await onActive(self) }
    func willResignActive() async { await onResign(self) }

    /// Binds work that counts its runs, then parks until cancelled.
    @discardableResult
    func bindCountingWork() -> Task<Void, Never> {
        let task = task { [ranWork] in
            ranWork.increment()
            try? await Task.sleep(for: .seconds(3600))
        }
        bound.append(task)
        return task
    }

    func recordAndActivate() async {
        lastCall = "activate"
        await activate()
    }

    func recordAndDeactivate() async {
        lastCall = "deactivate"
        await deactivate()
    }
}

/// A one-shot gate a hook can wait on while the test acts.
private final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    let reached: AsyncStream<Void>
    private let reachedContinuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
        (reached, reachedContinuation) = AsyncStream.makeStream()
    }

    func wait() async {
        reachedContinuation.yield()
        for await _ in stream { return }
    }

    func open() { continuation.yield() }
}

@Suite("Interactor lifecycle", .timeLimit(.minutes(1)))
struct InteractorLifecycleTests {
    @Test("activate and deactivate are idempotent and call the hooks once each")
    func idempotent() async {
        let interactor = ScriptedInteractor()
        let log = EventLog()
        await interactor.setHooks(active: { _ in log.append("active") }, resign: { _ in log.append("resign") })
        await interactor.activate()
        await interactor.activate()
        #expect(interactor.isActive)
        await interactor.deactivate()
        await interactor.deactivate()
        #expect(!interactor.isActive)
        #expect(log.all == ["active", "resign"])
    }

    @Test("task on an inactive interactor never runs and comes back cancelled")
    func taskOnInactiveNeverRuns() async {
        let interactor = ScriptedInteractor()
        let task = await interactor.bindCountingWork()
        await task.value
        #expect(task.isCancelled)
        #expect(interactor.ranWork.value == 0)
        #expect(interactor.lifecycle.boundTaskCount == 0)
    }

    @Test("a task bound while deactivating is cancelled and never runs")
    func taskBoundWhileDeactivating() async {
        let interactor = ScriptedInteractor()
        let captured = TestLock<Task<Void, Never>?>(nil)
        await interactor.setHooks(resign: { interactor in
            let task = await interactor.bindCountingWork()
            captured.withLock { $0 = task }
        })
        await interactor.activate()
        await interactor.deactivate()
        let task = try! #require(captured.withLock { $0 })
        await task.value
        #expect(task.isCancelled)
        #expect(interactor.ranWork.value == 0)
    }

    @Test("deactivation cancels bound tasks")
    func deactivationCancels() async {
        let interactor = ScriptedInteractor()
        await interactor.activate()
        let task = await interactor.bindCountingWork()
        #expect(interactor.lifecycle.boundTaskCount == 1)
        await interactor.deactivate()
        await task.value
        #expect(task.isCancelled)
        #expect(interactor.lifecycle.boundTaskCount == 0)
    }

    @Test("finished bound tasks leave the lifecycle's set")
    func finishedTasksLeave() async {
        let interactor = ScriptedInteractor()
        await interactor.activate()
        let tasks = (0..<100).map { _ in interactor.task {} }
        for task in tasks { await task.value }
        #expect(interactor.lifecycle.boundTaskCount == 0)
    }

    @Test("isActiveStream replays the current state, then every change")
    func isActiveStream() async {
        let interactor = ScriptedInteractor()
        await interactor.activate()
        var iterator = interactor.isActiveStream.makeAsyncIterator()
        #expect(await iterator.next() == true)
        await interactor.deactivate()
        #expect(await iterator.next() == false)
        await interactor.activate()
        #expect(await iterator.next() == true)
    }

    @Test("work bound by a didBecomeActive that a deactivation overtook is refused")
    func lostActivationRace() async {
        let interactor = ScriptedInteractor()
        let gate = Gate()
        let stale = TestLock<Task<Void, Never>?>(nil)
        let calls = Counter()
        await interactor.setHooks(active: { interactor in
            // Only the first activation waits, so the second overtakes it.
            guard calls.increment() == 1 else { return }
            await gate.wait()
            let task = await interactor.bindCountingWork()
            stale.withLock { $0 = task }
        })
        let first = Task { await interactor.activate() }
        for await _ in gate.reached { break }
        await interactor.deactivate()
        await interactor.activate()
        gate.open()
        await first.value
        let task = try! #require(stale.withLock { $0 })
        await task.value
        #expect(interactor.isActive)
        #expect(task.isCancelled)
        #expect(interactor.ranWork.value == 0)
    }

    @Test("activate/deactivate storms end in the state of the last call", arguments: 0..<5)
    func storm(round: Int) async {
        let interactor = ScriptedInteractor()
        await interactor.setHooks(active: { interactor in
            await Task.yield()
            await interactor.bindCountingWork()
        })
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if (index + round).isMultiple(of: 2) || index % 7 == round {
                        await interactor.recordAndActivate()
                    } else {
                        await interactor.recordAndDeactivate()
                    }
                }
            }
        }
        let last = await interactor.lastCall
        #expect(interactor.isActive == (last == "activate"))
        let live = await interactor.bound.filter { !$0.isCancelled }.count
        #expect(interactor.lifecycle.boundTaskCount == live)
        #expect(live == (interactor.isActive ? 1 : 0))
    }
}
