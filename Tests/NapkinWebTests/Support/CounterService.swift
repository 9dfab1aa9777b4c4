@_spi(Napkin) import NapkinSupport
import NapkinTesting
import napkin

/// An app-wide service: one counter every session sees, fanned out.
actor CounterService {
    let values = StateBroadcaster(0)

    func bump() async {
        await values.send(await values.value + 1)
    }
}

/// Records what test napkins built, weakly, and the tasks they bound, so
/// tests can check that evicted trees are released.
final class Probe: Sendable {
    private let objects = Locked<[WeakObject]>([])
    private let tasks = Locked<[Task<Void, Never>]>([])

    struct WeakObject: @unchecked Sendable {
        // Safe to share: only read and written inside `Probe`'s locks.
        weak var value: AnyObject?
    }

    func track(_ object: AnyObject) {
        objects.withLock { $0.append(WeakObject(value: object)) }
    }

    func track(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    /// How many Home interactors became active and resigned, and the
    /// waits for a number of resignations.
    private let lifecycle = Locked<(activated: Int, resigned: Int, waiters: [(count: Int, reached: Promise<Void>)])>((0, 0, []))

    var activations: Int { lifecycle.withLock { $0.activated } }
    var resignations: Int { lifecycle.withLock { $0.resigned } }

    func interactorActivated() {
        lifecycle.withLock { $0.activated += 1 }
    }

    func interactorResigned() {
        let reached = lifecycle.withLock { state in
            state.resigned += 1
            let reached = state.waiters.filter { $0.count <= state.resigned }.map(\.reached)
            state.waiters.removeAll { $0.count <= state.resigned }
            return reached
        }
        for promise in reached { promise.resolve(()) }
    }

    /// Waits until `count` Home interactors have resigned active (their
    /// trees deactivated); throws if they have not within 10 s.
    func waitForResignations(_ count: Int) async throws {
        let reached = Promise<Void>()
        let done = lifecycle.withLock { state in
            if state.resigned >= count { return true }
            state.waiters.append((count, reached))
            return false
        }
        if done { return }
        try await withDeadline(.seconds(10), TimedOut("\(count) interactors did not resign within 10 s")) { await reached.value() }
    }

    var liveObjects: Int { objects.withLock { $0.filter { $0.value != nil }.count } }
    var trackedObjects: Int { objects.withLock { $0.count } }

    /// Waits for every tracked task to end; throws if one has not within
    /// 10 s (a cancellation was lost).
    func waitForTasks() async throws {
        try await waitFor(tasks.withLock { $0 })
    }

    /// Waits for every cancelled tracked task to end (the tasks of torn-down
    /// trees), leaving the others running.
    func waitForCancelledTasks() async throws {
        try await waitFor(tasks.withLock { $0 }.filter(\.isCancelled))
    }

    private func waitFor(_ tasks: [Task<Void, Never>]) async throws {
        try await withDeadline(.seconds(10), TimedOut("\(tasks.count) bound tasks did not all end within 10 s")) {
            for task in tasks { await task.value }
        }
    }
}
