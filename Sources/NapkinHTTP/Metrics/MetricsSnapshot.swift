/// Every series of a ``MetricsRegistry`` at one moment: what `/metrics`
/// writes, and what in-process readers (a dashboard, a test) look at.
///
/// ```swift
/// let snapshot = await registry.snapshot()
/// let notFound = snapshot.value("napkin_http_requests_total", ["route": "unmatched", "status": "4xx"]) ?? 0
/// for family in snapshot.families { print(family.name, family.series.count) }
/// ```
public struct MetricsSnapshot: Sendable {
    /// The metric families, sorted by name.
    public let families: [MetricFamily]

    /// The family called `name`.
    public func family(_ name: String) -> MetricFamily? {
        families.first { $0.name == name }
    }

    /// The value of the series `name` with exactly `labels`: a counter's or
    /// gauge's value, a histogram's number of observations; nil when there
    /// is no such series.
    public func value(_ name: String, _ labels: MetricLabels = .none) -> Double? {
        guard let series = family(name)?.series.first(where: { $0.labels == labels }) else { return nil }
        switch series.value {
        case .number(let number): return number
        case .histogram(let histogram): return Double(histogram.count)
        }
    }

    /// The sum of every series of `name` whose labels include `matching`
    /// (all of them for none): requests of every route, say.
    public func total(_ name: String, matching: MetricLabels = .none) -> Double {
        guard let family = family(name) else { return 0 }
        var sum = 0.0
        for series in family.series where matching.labels.allSatisfy({ series.labels[$0.name] == $0.value }) {
            switch series.value {
            case .number(let number): sum += number
            case .histogram(let histogram): sum += Double(histogram.count)
            }
        }
        return sum
    }

    /// The Prometheus text format (version 0.0.4) of every family.
    public var prometheusText: String {
        var text = ""
        text.reserveCapacity(families.reduce(0) { $0 + 64 + $1.series.count * 48 })
        for family in families { family.write(to: &text) }
        return text
    }
}

/// What kind of metric a family is.
public enum MetricKind: String, Sendable {
    /// Only goes up.
    case counter
    /// Goes up and down.
    case gauge
    /// Observations in buckets.
    case histogram
}

/// All series of one metric name.
public struct MetricFamily: Sendable {
    /// The metric's name (`napkin_http_requests_total`).
    public let name: String
    /// What it counts, one line.
    public let help: String
    /// Its kind.
    public let kind: MetricKind
    /// Its series, in the order they were registered.
    public let series: [MetricSeries]

    func write(to text: inout String) {
        text += "# HELP \(name) \(MetricFamily.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for one in series {
            switch one.value {
            case .number(let number):
                text += "\(name)\(one.labels) \(MetricFamily.format(number))\n"
            case .histogram(let histogram):
                for bucket in histogram.buckets {
                    text += "\(name)_bucket\(one.labels.adding("le", MetricFamily.format(bucket.upperBound))) \(bucket.count)\n"
                }
                text += "\(name)_sum\(one.labels) \(MetricFamily.format(histogram.sum))\n"
                text += "\(name)_count\(one.labels) \(histogram.count)\n"
            }
        }
    }

    /// A number as the text format writes it: integers without a fraction,
    /// infinities as `+Inf`/`-Inf`.
    static func format(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// Help text as the text format needs it: `\` and newline escaped.
    static func escapeHelp(_ help: String) -> String {
        help.escaping(["\\": "\\\\", "\n": "\\n"])
    }
}

/// One series: a metric's labels and its value.
public struct MetricSeries: Sendable {
    /// The series' labels.
    public let labels: MetricLabels
    /// Its value.
    public let value: MetricValue
}

/// A series' value.
public enum MetricValue: Sendable, Equatable {
    /// A counter's or gauge's value.
    case number(Double)
    /// A histogram's counts.
    case histogram(HistogramValue)
}
