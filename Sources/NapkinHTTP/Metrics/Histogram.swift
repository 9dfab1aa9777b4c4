import Synchronization

/// How observations spread over fixed buckets: request latencies, scrape
/// times.
///
/// Made by ``MetricsRegistry/histogram(_:help:buckets:labels:)``. Recording
/// finds the bucket by a short scan of the bounds and does one relaxed
/// atomic add and one compare-and-swap for the sum: no lock. A duration
/// measured in integer nanoseconds (a request's latency) is scanned and
/// summed as an integer: two atomic adds.
public final class Histogram: Sendable {
    /// The upper bounds of the buckets, ascending (`+Inf` is implied).
    public let bounds: [Double]
    /// One count per bound, plus one for `+Inf`; not cumulative.
    private let counts: [Cell]
    /// ``bounds`` in nanoseconds, for ``record(nanoseconds:)``.
    private let nanosecondBounds: [UInt64]
    /// The sum of observations recorded as a `Double`, as its bits.
    private let sumBits = Atomic<UInt64>(0)
    /// The sum of observations recorded in nanoseconds.
    private let sumNanoseconds = Atomic<UInt64>(0)

    /// One bucket's count (an `Atomic` cannot be an array's element).
    private final class Cell: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Latency buckets in seconds, from 1 ms to 10 s.
    public static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    init(bounds: [Double]) {
        self.bounds = bounds
        nanosecondBounds = bounds.map { $0 <= 0 ? 0 : $0 >= 1.8e10 ? .max : UInt64(($0 * 1e9).rounded()) }
        counts = (0...bounds.count).map { _ in Cell() }
    }

    /// Records one observation of `nanoseconds` (a duration in seconds ×
    /// 10⁹, as ``MonotonicNanoseconds`` measures it) with integer arithmetic.
    package func record(nanoseconds: UInt64) {
        var index = 0
        while index < nanosecondBounds.count, nanoseconds > nanosecondBounds[index] { index += 1 }
        counts[index].count.add(1, ordering: .relaxed)
        sumNanoseconds.add(nanoseconds, ordering: .relaxed)
    }

    /// Records one observation of `value`.
    public func record(_ value: Double) {
        var index = 0
        while index < bounds.count, value > bounds[index] { index += 1 }
        counts[index].count.add(1, ordering: .relaxed)
        var old = sumBits.load(ordering: .relaxed)
        while true {
            let new = (Double(bitPattern: old) + value).bitPattern
            let (exchanged, original) = sumBits.compareExchange(expected: old, desired: new, ordering: .relaxed)
            if exchanged { return }
            old = original
        }
    }

    /// Records `duration` in seconds.
    public func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        record(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Sleeps `interval` again and again until the task is cancelled,
    /// recording each time how much later than asked it woke: how long the
    /// executor running the caller (an actor, a server loop) kept a due
    /// timer waiting. Run it in a task of its own on that executor.
    public func recordLateness(every interval: Duration, isolation: isolated (any Actor)? = #isolation) async {
        while !Task.isCancelled {
            let start = ContinuousClock.now
            do { try await Task.sleep(for: interval) } catch { return }
            record(max(.zero, ContinuousClock.now - start - interval))
        }
    }

    /// The counts so far: cumulative per bound (the last is `+Inf`), their
    /// sum and their number.
    public var value: HistogramValue {
        var running = 0
        var buckets: [HistogramValue.Bucket] = []
        buckets.reserveCapacity(counts.count)
        for (index, count) in counts.enumerated() {
            running += count.count.load(ordering: .relaxed)
            buckets.append(.init(upperBound: index < bounds.count ? bounds[index] : .infinity, count: running))
        }
        // Read after the buckets: the `+Inf` bucket must equal the count, so
        // the count is taken from the buckets rather than from a racing total.
        let sum = Double(bitPattern: sumBits.load(ordering: .relaxed)) + Double(sumNanoseconds.load(ordering: .relaxed)) * 1e-9
        return HistogramValue(buckets: buckets, sum: sum, count: running)
    }
}

/// A histogram's counts at one moment.
public struct HistogramValue: Sendable, Equatable {
    /// One bucket: how many observations were at most `upperBound`.
    public struct Bucket: Sendable, Equatable {
        /// The bucket's bound (`infinity` for the last).
        public let upperBound: Double
        /// Observations at most `upperBound` (cumulative).
        public let count: Int
    }

    /// The buckets, ascending; the last is `+Inf` and holds ``count``.
    public let buckets: [Bucket]
    /// The sum of every observation.
    public let sum: Double
    /// The number of observations.
    public let count: Int
}
