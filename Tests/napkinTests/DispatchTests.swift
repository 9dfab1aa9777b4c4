import Testing
import napkin

/// A listener, as an interactor is: an actor a view reaches with `await`.
final actor TapListener {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    func didTap() {
        log.append("tap")
    }

    /// A tap whose work crosses actors before it is done.
    func didTapSlowly(_ presenter: TapPresenter) async {
        await Task.yield()
        await presenter.show("tapped")
        log.append("tap")
    }
}

@MainActor
final class TapPresenter: Presentable {
    var shown = ""
    func show(_ text: String) { shown = text }
}

@Suite("dispatch", .timeLimit(.minutes(1)))
@MainActor
struct DispatchTests {
    @Test("dispatch returns at once and runs the listener call in a task of the given priority")
    func runsWithPriority() async {
        let log = EventLog()
        let listener = TapListener(log: log)
        let priority = PriorityBox()
        let task = dispatch(priority: .high) {
            priority.value = Task.currentPriority
            await listener.didTap()
        }
        log.append("returned")
        await task.value
        #expect(log.all == ["returned", "tap"])
        #expect(priority.value == .high)
    }

    @Test("a listener gone before the dispatched task runs is not called")
    func listenerGone() async {
        let log = EventLog()
        var listener: TapListener? = TapListener(log: log)
        let task = dispatch { [weak listener] in await listener?.didTap() }
        listener = nil
        await task.value
        #expect(listener == nil)
        #expect(log.all.isEmpty)
    }

    @Test("inside a settlement, the settlement waits for the dispatched call")
    func settlementWaits() async {
        let log = EventLog()
        let listener = TapListener(log: log)
        let presenter = TapPresenter()
        let (_, report) = await Settlement.run(timeout: .seconds(10)) {
            dispatch { await listener.didTapSlowly(presenter) }
        }
        #expect(report.settled)
        #expect(log.all == ["tap"])
        #expect(presenter.shown == "tapped")
    }
}

@MainActor
private final class PriorityBox {
    var value: TaskPriority?
}
