import NapkinSupport

/// Runs the main-actor handlers of observations (see
/// ``Interactable/observeOnMain(_:_:)``) in batches:
/// every handler that becomes ready before the main actor gets to them runs
/// in one main-actor job. A value sent to thousands of such observers costs
/// one hop to the main actor, not a task and a hop each.
final class MainActorBatch: Sendable {
    static let shared = MainActorBatch()

    private let pending = Locked<[@Sendable @MainActor () -> Void]>([])
    /// The number of the batch running now, counting from 1; `nil` between
    /// batches (for tests).
    @MainActor private(set) var running: Int?
    @MainActor private var batchesRun = 0

    /// Queues `work` for the next batch, and schedules that batch when it is
    /// the first to wait.
    func enqueue(_ work: @escaping @Sendable @MainActor () -> Void) {
        let first = pending.withLock { pending -> Bool in
            pending.append(work)
            return pending.count == 1
        }
        if first {
            Task { @MainActor in self.run() }
        }
    }

    @MainActor
    private func run() {
        let batch = pending.withLock { pending -> [@Sendable @MainActor () -> Void] in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        batchesRun += 1
        running = batchesRun
        defer { running = nil }
        for work in batch { work() }
    }
}
