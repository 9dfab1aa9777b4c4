import Synchronization

/// A value that goes up and down: open connections, live sessions, the
/// lateness of a timer in microseconds.
///
/// Made by ``MetricsRegistry/gauge(_:help:labels:)``. For a value the code
/// already keeps somewhere, prefer a sampled gauge
/// (``MetricsRegistry/gauge(_:help:labels:sample:)``): it is read when the
/// metrics are, and costs nothing in between.
public final class Gauge: Sendable {
    private let current = Atomic<Int>(0)

    init() {}

    /// Sets the value.
    public func record(_ value: Int) {
        current.store(value, ordering: .relaxed)
    }

    /// Adds `amount` (which may be negative).
    public func increment(by amount: Int = 1) {
        current.add(amount, ordering: .relaxed)
    }

    /// Subtracts `amount`.
    public func decrement(by amount: Int = 1) {
        current.subtract(amount, ordering: .relaxed)
    }

    /// The value now.
    public var value: Int { current.load(ordering: .relaxed) }
}
