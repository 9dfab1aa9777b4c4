import Synchronization

/// A count that only goes up: requests served, sessions evicted, bytes sent.
///
/// Made by ``MetricsRegistry/counter(_:help:labels:)``, which hands back the
/// same counter for the same name and labels. Incrementing is one relaxed
/// atomic add: no lock, cheap enough for every request.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Adds `amount` (at least 0; a negative amount is ignored).
    public func increment(by amount: Int = 1) {
        guard amount > 0 else { return }
        count.add(amount, ordering: .relaxed)
    }

    /// The count so far.
    public var value: Int { count.load(ordering: .relaxed) }
}
