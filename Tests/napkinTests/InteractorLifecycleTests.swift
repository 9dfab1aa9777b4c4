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

/// Bound work that answers pings while it runs: a hook can ask whether it
/// still runs without waiting on a clock.
private final class Echo: Sendable {
    private let pings: AsyncStream<Void>
    private let pinger: AsyncStream<Void>.Continuation
    private let answers: AsyncStream<Void>
    private let answerer: AsyncStream<Void>.Continuation

    init() {
        (pings, pinger) = AsyncStream.makeStream()
        (answers, answerer) = AsyncStream.makeStream()
    }

    /// The work: answers each ping until it is cancelled.
    func serve() async {
        for await _ in pings where !Task.isCancelled { answerer.yield() }
        answerer.finish()
    }

    /// Whether the work answered (`false` once it has ended).
    func ping() async -> Bool {
        pinger.yield()
        for await _ in answers { return true }
        return false
    }
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

    @Test("willResignActive runs first, while the interactor is active and its bound work still runs")
    func resignRunsFirst() async {
        let interactor = ScriptedInteractor()
        let echo = Echo()
        await interactor.activate()
        let work = interactor.task { await echo.serve() }
        let seen = TestLock<(active: Bool, answered: Bool, cancelled: Bool)?>(nil)
        await interactor.setHooks(resign: { interactor in
            let answered = await echo.ping()
            seen.withLock { $0 = (interactor.isActive, answered, work.isCancelled) }
        })
        await interactor.deactivate()
        let during = try! #require(seen.withLock { $0 })
        #expect(during.active)
        #expect(during.answered, "the bound work still ran")
        #expect(!during.cancelled)
        // Once deactivate returns, the work is cancelled and the interactor inactive.
        #expect(work.isCancelled)
        #expect(!interactor.isActive)
        await work.value
        #expect(interactor.lifecycle.boundTaskCount == 0)
    }

    @Test("concurrent deactivations call willResignActive once; the later ones return at once")
    func concurrentDeactivations() async {
        let interactor = ScriptedInteractor()
        let gate = Gate()
        let log = EventLog()
        await interactor.setHooks(resign: { _ in
            log.append("resign")
            await gate.wait()
        })
        await interactor.activate()
        let work = await interactor.bindCountingWork()
        let first = Task { await interactor.deactivate() }
        for await _ in gate.reached { break }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { await interactor.deactivate() } }
        }
        #expect(interactor.isActive, "the first deactivation has not ended")
        #expect(!work.isCancelled)
        gate.open()
        await first.value
        #expect(log.all == ["resign"])
        #expect(!interactor.isActive)
        #expect(work.isCancelled)
    }

    @Test("an activate made while willResignActive runs wins; that deactivation still ends the earlier work")
    func activateDuringResign() async {
        let interactor = ScriptedInteractor()
        let gate = Gate()
        let resigns = Counter()
        let log = EventLog()
        await interactor.setHooks(
            active: { interactor in
                log.append("active")
                await interactor.bindCountingWork()
            },
            resign: { _ in
                log.append("resign")
                if resigns.increment() == 1 { await gate.wait() }
            })
        await interactor.activate()
        let deactivation = Task { await interactor.deactivate() }
        for await _ in gate.reached { break }
        await interactor.activate()
        gate.open()
        await deactivation.value
        let bound = await interactor.bound
        #expect(interactor.isActive)
        #expect(log.all == ["active", "resign", "active"])
        #expect(bound.map(\.isCancelled) == [true, false])
        #expect(interactor.lifecycle.boundTaskCount == 1)
        await interactor.deactivate()
        #expect(!interactor.isActive)
        #expect(bound[1].isCancelled)
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
