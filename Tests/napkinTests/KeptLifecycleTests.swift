import Testing
@testable import napkin

/// An interactor that declares no lifecycle: napkin keeps one for it.
private final actor PlainInteractor: Interactable {
    private(set) var activations = 0

    func didBecomeActive() async { activations += 1 }

    /// Binds work that parks until cancelled, then reports the cancellation.
    func bindParkedWork(reporting cancelled: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
        task {
            try? await Task.sleep(for: .seconds(3600))
            cancelled.yield()
        }
    }
}

@Suite("A lifecycle napkin keeps for an interactor that declares none", .timeLimit(.minutes(1)))
struct KeptLifecycleTests {
    @Test("the same lifecycle is found on every use, and each interactor has its own")
    func oneLifecyclePerInteractor() async {
        let first = PlainInteractor(), second = PlainInteractor()
        #expect(first.lifecycle === first.lifecycle)
        #expect(first.lifecycle !== second.lifecycle)
        await first.activate()
        #expect(first.isActive)
        #expect(!second.isActive)
        await first.activate()
        #expect(await first.activations == 1)
    }

    @Test("bound work runs while active and is cancelled by deactivation")
    func boundWorkFollowsTheLifecycle() async {
        let interactor = PlainInteractor()
        let (cancelled, report) = AsyncStream.makeStream(of: Void.self)
        await interactor.activate()
        let work = await interactor.bindParkedWork(reporting: report)
        #expect(!work.isCancelled)
        #expect(interactor.lifecycle.boundTaskCount == 1)
        await interactor.deactivate()
        #expect(work.isCancelled)
        var reports = cancelled.makeAsyncIterator()
        #expect(await reports.next() != nil)
    }

    @Test("128 tasks asking at once for a new interactor's lifecycle get one lifecycle")
    func racingFirstUse() async {
        let interactor = PlainInteractor()
        let found = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<128 { group.addTask { ObjectIdentifier(interactor.lifecycle) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(found.count == 1)
        #expect(found.first == ObjectIdentifier(interactor.lifecycle))
    }

    @Test("interactors that are gone leave the table, and work bound by one released while active is cancelled")
    func releasedInteractorsLeave() async {
        let (_, report) = AsyncStream.makeStream(of: Void.self)
        var interactor: PlainInteractor? = PlainInteractor()
        await interactor?.activate()
        let work = await interactor?.bindParkedWork(reporting: report)
        weak let released = interactor
        interactor = nil
        // Interactors come and go; the table's sweeps drop the dead ones,
        // and a dropped lifecycle cancels what it had bound. The bound
        // task may hold the interactor until it first runs, so the churn
        // goes on (a busy run's task starts late) until a sweep finds it.
        let deadline = ContinuousClock.now + .seconds(30)
        repeat {
            for _ in 0..<20_000 { _ = PlainInteractor().lifecycle }
            await Task.yield()
        } while work?.isCancelled != true && ContinuousClock.now < deadline
        #expect(released == nil)
        #expect(LifecycleTable.count < 5_000)
        #expect(work?.isCancelled == true)
    }

    @Test("a router's release lets go of its interactor's lifecycle, cancelling what was bound")
    @MainActor
    func routerReleaseEndsTheLifecycle() async {
        let interactor = PlainInteractor()
        let (_, report) = AsyncStream.makeStream(of: Void.self)
        var router: Router<PlainInteractor>? = Router(interactor: interactor)
        await router?.interactor.activate()
        let work = await interactor.bindParkedWork(reporting: report)
        #expect(interactor.isActive)
        router = nil
        #expect(work.isCancelled)
        #expect(!interactor.isActive, "used after its router, the interactor has a new, inactive lifecycle")
    }
}
