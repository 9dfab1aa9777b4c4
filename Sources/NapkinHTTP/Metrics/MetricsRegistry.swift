@_spi(Napkin) import NapkinSupport

/// Every metric of a process, by name and labels, written in the
/// Prometheus text format by ``MetricsEndpoint`` and readable in process
/// through ``snapshot()``.
///
/// The shape follows swift-metrics: ask the registry for a ``Counter``,
/// ``Gauge`` or ``Histogram`` by name and labels once, keep it, and update
/// it where things happen. Updates are relaxed atomics, no lock. Values the
/// code already keeps (open connections, live sessions) are *sampled*: a
/// closure read when the metrics are, which costs nothing in between; a
/// *refresher* may first fetch such values from an actor.
///
/// ```swift
/// let registry = MetricsRegistry()
/// let signIns = registry.counter("ribhouse_sign_ins_total", help: "Sign-ins.")
/// signIns.increment()
/// registry.gauge("ribhouse_pit_temperature", help: "The pit, in °F.") { Double(pit.temperature) }
/// print(await registry.snapshot().prometheusText)
/// ```
///
/// Registering a name twice with the same labels returns the same metric;
/// the same name with another kind is a programming error and traps.
public final class MetricsRegistry: Sendable {
    private enum Source: Sendable {
        case counter(Counter)
        case gauge(Gauge)
        case histogram(Histogram)
        case sampled(@Sendable () -> Double)
    }

    private struct Family {
        let help: String
        let kind: MetricKind
        var series: [MetricLabels: Int] = [:]
        var sources: [(MetricLabels, Source)] = []
    }

    private struct State {
        var families: [String: Family] = [:]
        var refreshers: [@Sendable () async -> Void] = []
    }

    // Taken when a metric is registered and when a snapshot is read, never
    // when a metric is updated.
    private let state = Locked(State())

    /// An empty registry.
    public init() {}

    /// The counter `name` with `labels`, made on first use.
    public func counter(_ name: String, help: String, labels: MetricLabels = .none) -> Counter {
        guard case .counter(let counter) = source(name, help: help, kind: .counter, labels: labels, make: { .counter(Counter()) }) else {
            preconditionFailure("\(name)\(labels) is a sampled counter")
        }
        return counter
    }

    /// The gauge `name` with `labels`, made on first use.
    public func gauge(_ name: String, help: String, labels: MetricLabels = .none) -> Gauge {
        guard case .gauge(let gauge) = source(name, help: help, kind: .gauge, labels: labels, make: { .gauge(Gauge()) }) else {
            preconditionFailure("\(name)\(labels) is a sampled gauge")
        }
        return gauge
    }

    /// The histogram `name` with `labels` and the upper bounds `buckets`
    /// (ascending), made on first use.
    public func histogram(
        _ name: String, help: String, buckets: [Double] = Histogram.latencyBuckets, labels: MetricLabels = .none
    ) -> Histogram {
        precondition(zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 }, "histogram buckets must ascend")
        let made = source(name, help: help, kind: .histogram, labels: labels, make: { .histogram(Histogram(bounds: buckets)) })
        guard case .histogram(let histogram) = made else { preconditionFailure("\(name) is not a histogram") }
        return histogram
    }

    /// A gauge `name` with `labels` whose value is `sample()`, read at each
    /// snapshot (from the reading thread: `sample` must be cheap and
    /// thread-safe). Registering it again replaces the closure.
    public func gauge(_ name: String, help: String, labels: MetricLabels = .none, sample: @escaping @Sendable () -> Double) {
        sampled(name, help: help, kind: .gauge, labels: labels, sample: sample)
    }

    /// A counter `name` with `labels` whose value is `sample()`, for a count
    /// kept elsewhere; like ``gauge(_:help:labels:sample:)``.
    public func counter(_ name: String, help: String, labels: MetricLabels = .none, sample: @escaping @Sendable () -> Double) {
        sampled(name, help: help, kind: .counter, labels: labels, sample: sample)
    }

    /// Runs `refresh` before each ``snapshot()``: for values kept on an
    /// actor (the main actor's sessions), which it copies into gauges.
    public func onSnapshot(_ refresh: @escaping @Sendable () async -> Void) {
        state.withLock { $0.refreshers.append(refresh) }
    }

    /// Every series now, after running the refreshers.
    public func snapshot() async -> MetricsSnapshot {
        let refreshers = state.withLock { $0.refreshers }
        for refresh in refreshers { await refresh() }
        return currentSnapshot()
    }

    /// Every series now, without running the refreshers: what they last
    /// copied. Synchronous, for a reader that cannot await.
    public func currentSnapshot() -> MetricsSnapshot {
        let families = state.withLock { state in state.families.map { ($0.key, $0.value) } }
        return MetricsSnapshot(families: families.sorted { $0.0 < $1.0 }.map { name, family in
            MetricFamily(name: name, help: family.help, kind: family.kind, series: family.sources.map { labels, source in
                switch source {
                case .counter(let counter): MetricSeries(labels: labels, value: .number(Double(counter.value)))
                case .gauge(let gauge): MetricSeries(labels: labels, value: .number(Double(gauge.value)))
                case .histogram(let histogram): MetricSeries(labels: labels, value: .histogram(histogram.value))
                case .sampled(let sample): MetricSeries(labels: labels, value: .number(sample()))
                }
            })
        })
    }

    /// The number of series registered, over every name.
    public var seriesCount: Int {
        state.withLock { $0.families.values.reduce(0) { $0 + $1.sources.count } }
    }

    private func source(
        _ name: String, help: String, kind: MetricKind, labels: MetricLabels, make: () -> Source
    ) -> Source {
        state.withLock { state in
            var family = state.families[name] ?? MetricsRegistry.family(name, help: help, kind: kind)
            precondition(family.kind == kind, "\(name) is a \(family.kind.rawValue), not a \(kind.rawValue)")
            if let index = family.series[labels] { return family.sources[index].1 }
            let made = make()
            family.series[labels] = family.sources.count
            family.sources.append((labels, made))
            state.families[name] = family
            return made
        }
    }

    private func sampled(_ name: String, help: String, kind: MetricKind, labels: MetricLabels, sample: @escaping @Sendable () -> Double) {
        state.withLock { state in
            var family = state.families[name] ?? MetricsRegistry.family(name, help: help, kind: kind)
            precondition(family.kind == kind, "\(name) is a \(family.kind.rawValue), not a \(kind.rawValue)")
            if let index = family.series[labels] {
                guard case .sampled = family.sources[index].1 else { preconditionFailure("\(name)\(labels) is not sampled") }
                family.sources[index].1 = .sampled(sample)
            } else {
                family.series[labels] = family.sources.count
                family.sources.append((labels, .sampled(sample)))
            }
            state.families[name] = family
        }
    }

    private static func family(_ name: String, help: String, kind: MetricKind) -> Family {
        precondition(MetricLabels.isValidName(name, colons: true), "not a metric name: \(name)")
        return Family(help: help, kind: kind)
    }
}
