import Foundation
import Synchronization

/// A thread-safe, ordered record of what test napkins did.
final class EventLog: Sendable {
    private let entries = TestLock<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }

    func count(of entry: String) -> Int {
        entries.withLock { $0.filter { $0 == entry }.count }
    }
}

/// Collects the tasks test interactors bind, so a test can await their end
/// instead of sleeping.
final class TaskRegistry: Sendable {
    private let tasks = TestLock<[Task<Void, Never>]>([])

    func add(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    /// Waits for every task to end; throws if one has not within 10 s
    /// (a cancellation was lost).
    func waitForAll() async throws {
        let tasks = tasks.withLock { $0 }
        try await withDeadline(.seconds(10), { "\(tasks.count) bound tasks did not all end within 10 s" }) {
            for task in tasks { await task.value }
        }
    }
}

/// A shared counter that closures can capture.
final class Counter: Sendable {
    private let storage = Atomic(0)

    @discardableResult
    func increment() -> Int { storage.add(1, ordering: .relaxed).newValue }

    var value: Int { storage.load(ordering: .relaxed) }
}

/// A value behind an `NSLock`, which ThreadSanitizer understands.
final class TestLock<Value>: @unchecked Sendable {
    // Safe to share: `value` is only touched inside `withLock`, holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
