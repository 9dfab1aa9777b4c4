import Testing
import napkin

@Suite("Viewing", .timeLimit(.minutes(1)))
@MainActor
struct ViewingTests {
    @Test("a tree launched for nobody is unviewed throughout: root, children, didBecomeActive, bound tasks and observations")
    func unviewedTree() async {
        let log = EventLog()
        let updates = StateBroadcaster(0)
        let (root, child) = (ViewingProbe(name: "root", log: log, updates: updates), ViewingProbe(name: "child", log: log, updates: updates))
        let launch = LaunchRouter<ViewingProbe, TestViewController>(interactor: root, viewController: TestViewController())
        await Viewing.$isViewed.withValue(false) {
            await launch.launch(from: TestHost())
        }
        // Attached later, from a task that does not say: the child takes its parent's.
        await launch.attachChild(Router(interactor: child))
        #expect(!root.isViewed && !child.isViewed)
        // A value sent from a viewed context is handled with the tree's value.
        await updates.deliver(1)
        await root.boundTaskSaw()
        await child.boundTaskSaw()
        #expect(log.all.contains("root.active viewed=false") && log.all.contains("child.active viewed=false"))
        #expect(log.all.contains("root.task viewed=false") && log.all.contains("child.task viewed=false"))
        #expect(log.all.contains("root.observed 1 viewed=false") && log.all.contains("child.observed 1 viewed=false"))
        #expect(!log.all.contains { $0.hasSuffix("viewed=true") })
        await launch.terminate()
    }

    @Test("a tree launched as usual is viewed, even when a value comes from an unviewed one")
    func viewedTree() async {
        let log = EventLog()
        let updates = StateBroadcaster(0)
        let root = ViewingProbe(name: "root", log: log, updates: updates)
        let launch = LaunchRouter<ViewingProbe, TestViewController>(interactor: root, viewController: TestViewController())
        await launch.launch(from: TestHost())
        #expect(root.isViewed)
        await Viewing.$isViewed.withValue(false) { _ = await updates.deliver(2) }
        await root.boundTaskSaw()
        #expect(log.all.contains("root.observed 2 viewed=true"))
        #expect(!log.all.contains { $0.hasSuffix("viewed=false") })
        await launch.terminate()
    }
}

/// Logs what ``Viewing/isViewed`` is where an interactor's work runs.
final actor ViewingProbe: Interactable {
    private let name: String
    private let log: EventLog
    private let updates: StateBroadcaster<Int>
    private var sawTask: Task<Void, Never>?

    init(name: String, log: EventLog, updates: StateBroadcaster<Int>) {
        self.name = name
        self.log = log
        self.updates = updates
    }

    func didBecomeActive() async {
        log.append("\(name).active viewed=\(Viewing.isViewed)")
        sawTask = task { [name, log] in log.append("\(name).task viewed=\(Viewing.isViewed)") }
        observe(await updates.subscribe()) { [name, log] value in
            if value > 0 { log.append("\(name).observed \(value) viewed=\(Viewing.isViewed)") }
        }
    }

    /// Returns once the task bound in `didBecomeActive()` has run.
    func boundTaskSaw() async {
        await sawTask?.value
    }
}
