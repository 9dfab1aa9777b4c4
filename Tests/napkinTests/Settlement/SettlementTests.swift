import Testing
@_spi(Napkin) import NapkinSupport
import napkin

/// A service whose state fans out, the way app services do.
private actor Switch {
    let state = StateBroadcaster(false)
    func flip() async { await state.send(!(await state.value)) }
}

@Suite("Settlement", .timeLimit(.minutes(1)))
@MainActor
struct SettlementTests {
    @Test("an event that settles as its body returns never takes the caller off its actor")
    func settlingAtOnceStaysOnTheActor() async {
        let executor = CountingExecutor()
        await withTaskExecutorPreference(executor) {
            let before = executor.count
            let (value, report) = await Settlement.run(timeout: .seconds(30)) { 42 }
            #expect(value == 42)
            #expect(report.settled)
            #expect(executor.count == before)
        }
    }

    @Test("run waits until subscribers processed what the body sent")
    func waitsForDeliveries() async {
        let service = Switch()
        let seen = EventLog()
        let subscription = await service.state.subscribe()
        let consumer = Task.detached {
            for await value in subscription {
                await Task.yield()
                seen.append("\(value)")
            }
        }
        _ = await Settlement.run(timeout: .seconds(30)) {}
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await service.flip()
        }
        #expect(report.settled)
        #expect(seen.all.last == "true")
        consumer.cancel()
    }

    @Test("run also waits for napkins attached as a consequence, until their bound tasks wait for input")
    func waitsForAttachedNapkins() async {
        let tree = TestTree()
        let root = tree.make("root")
        let gateSubscription = await tree.ticks.subscribe()
        // A listener-like loop: each tick attaches a new child napkin.
        let loop = Task { @MainActor in
            for await tick in gateSubscription where tick > 0 {
                await root.attachChild(tree.make("child\(tick)"))
            }
        }
        let (_, report) = await Settlement.run(timeout: .seconds(30)) {
            await tree.ticks.send(5)
        }
        #expect(report.settled)
        let child = try! #require(root.children.first as? TestRouter)
        #expect(child.interactor.isActive)
        // The child's bound task subscribed and presented the replayed value.
        #expect(child.interactor.presenter.lastTick == 5)
        loop.cancel()
    }

    @Test("a stuck consequence cannot hold run past its timeout")
    func timesOut() async {
        let service = Switch()
        let subscription = await service.state.subscribe()
        let taken = AsyncStream.makeStream(of: Bool.self)
        let stalled = Task {
            var iterator = subscription.makeAsyncIterator()
            taken.continuation.yield(await iterator.next() ?? false)
            try? await Task.sleep(for: .seconds(3600))
        }
        for await _ in taken.stream { break }
        let (_, report) = await Settlement.run(timeout: .milliseconds(50)) {
            await service.flip()
        }
        #expect(!report.settled)
        #expect(report.outstanding == 1)
        stalled.cancel()
    }
}

/// A service written as the reference's streaming recipe writes it: a plain
/// `AsyncStream` per subscriber, the current value first, then every change.
private actor PlainGuestService {
    private var current = "guest"
    private var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0

    func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        continuation.yield(current)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.remove(id) }
        }
        return stream
    }

    func set(_ name: String) {
        current = name
        for continuation in subscribers.values { continuation.yield(name) }
    }

    private func remove(_ id: Int) {
        subscribers[id] = nil
    }
}

@MainActor
private final class GuestPresenter: Presentable {
    var shown: [String] = []
    func show(_ name: String) { shown.append(name) }
}

/// A default actor the bound task passes through on its way.
private actor Ledger {
    private var entries = 0
    func record() async -> Int {
        await Task.yield()
        entries += 1
        return entries
    }
}

/// An interactor that follows the service with `task { for await … }`.
private final actor GuestInteractor: Interactable {
    private let service: PlainGuestService
    private let presenter: GuestPresenter
    private let ledger = Ledger()

    init(service: PlainGuestService, presenter: GuestPresenter) {
        self.service = service
        self.presenter = presenter
    }

    func didBecomeActive() async {
        task { [service, presenter, ledger] in
            for await name in await service.stream() {
                // Main actor, another actor, main actor: all before the value is shown.
                await presenter.show("seen")
                _ = await ledger.record()
                await presenter.show(name)
            }
        }
    }
}

@MainActor
private final class GuestHost: LaunchHost {
    func setRootViewControllable(_ viewControllable: any ViewControllable) {}
}

@MainActor
private final class GuestView: ViewControllable {}

@Suite("Settlement and streams napkin does not own", .timeLimit(.minutes(1)))
@MainActor
struct SettlementPlainStreamTests {
    @Test("a tab launched with a task { for await } over a plain AsyncStream settles, with the first value shown")
    func launchSettles() async {
        let service = PlainGuestService()
        let presenter = GuestPresenter()
        let router = LaunchRouter(interactor: GuestInteractor(service: service, presenter: presenter), viewController: GuestView())
        let (_, report) = await Settlement.run(timeout: .seconds(20)) {
            await router.launch(from: GuestHost())
        }
        #expect(report.settled)
        #expect(report.outstanding == 0)
        #expect(presenter.shown == ["seen", "guest"])
        await router.terminate()
    }

    @Test("a post that attaches such a napkin settles, with the first value shown; a later post settles too")
    func postSettles() async {
        let service = PlainGuestService()
        let presenter = GuestPresenter()
        let root = TestTree().make("root")
        let child = Router(interactor: GuestInteractor(service: service, presenter: presenter))
        let (_, attached) = await Settlement.run(timeout: .seconds(20)) {
            await root.attachChild(child)
        }
        #expect(attached.settled)
        #expect(presenter.shown == ["seen", "guest"])
        let (_, renamed) = await Settlement.run(timeout: .seconds(20)) {
            await service.set("Ada")
        }
        #expect(renamed.settled)
        await root.detachChild(child)
    }
}
