import napkin

/// A napkin for tree tests: it logs its lifecycle and binds one long-lived
/// task per activation that waits on a broadcaster until cancelled.
final actor TestInteractor: PresentableInteractable {
    nonisolated let presenter: TestPresenter
    nonisolated let name: String
    private let log: EventLog
    private let tasks: TaskRegistry
    private let ticks: StateBroadcaster<Int>

    init(name: String, presenter: TestPresenter, log: EventLog, tasks: TaskRegistry, ticks: StateBroadcaster<Int>) {
        self.name = name
        self.presenter = presenter
        self.log = log
        self.tasks = tasks
        self.ticks = ticks
    }

    func didBecomeActive() async {
        log.append("\(name).active")
        let task = task { [ticks, presenter] in
            for await tick in await ticks.subscribe() {
                await presenter.show(tick)
            }
        }
        tasks.add(task)
    }

    func willResignActive() async {
        log.append("\(name).inactive")
    }
}

@MainActor
final class TestViewController: ViewControllable {}

@MainActor
@Observable
final class TestPresenter: Presenter<TestViewController> {
    var lastTick = -1

    func show(_ tick: Int) {
        lastTick = tick
    }
}

@MainActor
final class TestRouter: ViewableRouter<TestInteractor, TestViewController> {
    private let log: EventLog
    private let onLoad: @MainActor (TestRouter) async -> Void

    init(interactor: TestInteractor, viewController: TestViewController, log: EventLog,
         onLoad: @escaping @MainActor (TestRouter) async -> Void = { _ in }) {
        self.log = log
        self.onLoad = onLoad
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        log.append("\(interactor.name).loaded")
        await onLoad(self)
    }
}

/// Builds test napkins that share one log, task registry and broadcaster.
@MainActor
struct TestTree {
    let log = EventLog()
    let tasks = TaskRegistry()
    let ticks = StateBroadcaster(0)

    func make(_ name: String, onLoad: @escaping @MainActor (TestRouter) async -> Void = { _ in }) -> TestRouter {
        let viewController = TestViewController()
        let presenter = TestPresenter(viewController: viewController)
        let interactor = TestInteractor(name: name, presenter: presenter, log: log, tasks: tasks, ticks: ticks)
        return TestRouter(interactor: interactor, viewController: viewController, log: log, onLoad: onLoad)
    }
}
