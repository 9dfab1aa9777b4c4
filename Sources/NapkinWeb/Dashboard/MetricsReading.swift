import NapkinHTTP

/// What the dashboard shows of the app's metrics: requests by route, with
/// their latency, and the figures an operator looks at first.
struct MetricsReading: Equatable, Encodable, Sendable {
    /// One route pattern's requests.
    struct RouteRow: Equatable, Encodable, Sendable {
        let route: String
        let requests: Int
        /// Answers by status class, `2xx` to `5xx`.
        let byStatus: [String: Int]
        /// Mean and 99th percentile (a bucket's bound) in milliseconds.
        let meanMilliseconds: Double
        let p99Milliseconds: Double?
    }

    /// One figure: a label and its value, as shown.
    struct Figure: Equatable, Encodable, Sendable {
        let label: String
        let value: String
    }

    var routes: [RouteRow] = []
    var figures: [Figure] = []

    init() {}

    init(_ snapshot: MetricsSnapshot) {
        routes = Self.routes(snapshot)
        let counted: [(String, String)] = [
            ("Open connections", "napkin_http_open_connections"),
            ("Connections refused", "napkin_http_connections_refused_total"),
            ("Request body bytes held", "napkin_http_buffered_body_bytes"),
            ("Sessions evicted", "napkin_sessions_evicted_total"),
            ("Tabs released", "napkin_tabs_released_total"),
            ("Patches sent", "napkin_patches_sent_total"),
            ("Settlement timeouts", "napkin_settlement_timeouts_total"),
            ("Broadcast stalls", "napkin_broadcast_stalls_total"),
            ("Redis commands", "napkin_redis_commands_total"),
            ("Redis errors", "napkin_redis_errors_total"),
            ("Redis reconnects", "napkin_redis_reconnects_total"),
        ]
        for (label, name) in counted where snapshot.family(name) != nil {
            figures.append(Figure(label: label, value: String(Int(snapshot.total(name)))))
        }
        if let rss = snapshot.value("process_resident_memory_bytes") {
            figures.append(Figure(label: "Resident memory", value: "\(Int(rss) >> 20) MiB"))
        }
        let lags = [
            ("Main-actor lag", "napkin_main_actor_lag_seconds"), ("Server loop lag", "napkin_http_loop_lag_seconds"),
            ("Fan-out lag", "napkin_fanout_lag_seconds"),
        ]
        for (label, name) in lags {
            guard case .histogram(let lag)? = snapshot.family(name)?.series.first?.value, let p99 = Self.quantile(0.99, of: lag)
            else { continue }
            figures.append(Figure(label: "\(label), 99th percentile", value: "≤ \(Self.milliseconds(p99))"))
        }
        for series in snapshot.family("napkin_presence_entries")?.series ?? [] {
            guard case .number(let entries) = series.value else { continue }
            figures.append(Figure(label: "Present in \(series.labels["topic"] ?? "")", value: String(Int(entries))))
        }
        for series in snapshot.family("napkin_lease_held")?.series ?? [] {
            guard case .number(let held) = series.value else { continue }
            figures.append(Figure(label: "Lease \(series.labels["lease"] ?? "")", value: held > 0 ? "held here" : "held elsewhere"))
        }
    }

    private static func routes(_ snapshot: MetricsSnapshot) -> [RouteRow] {
        var counts: [String: [String: Int]] = [:]
        for series in snapshot.family("napkin_http_requests_total")?.series ?? [] {
            guard let route = series.labels["route"], let status = series.labels["status"],
                case .number(let count) = series.value
            else { continue }
            counts[route, default: [:]][status, default: 0] += Int(count)
        }
        var latency: [String: HistogramValue] = [:]
        for series in snapshot.family("napkin_http_request_duration_seconds")?.series ?? [] {
            guard let route = series.labels["route"], case .histogram(let histogram) = series.value else { continue }
            latency[route] = histogram
        }
        return counts.filter { $0.value.values.contains { $0 > 0 } }.map { route, byStatus in
            let histogram = latency[route]
            let mean = histogram.map { $0.count > 0 ? $0.sum / Double($0.count) * 1000 : 0 } ?? 0
            return RouteRow(
                route: route, requests: byStatus.values.reduce(0, +), byStatus: byStatus, meanMilliseconds: mean,
                p99Milliseconds: histogram.flatMap { quantile(0.99, of: $0) }.map { $0 * 1000 })
        }
        .sorted { ($0.requests, $1.route) > ($1.requests, $0.route) }
    }

    /// The bound of the first bucket holding the `q` quantile; nil when
    /// there are no observations or it is past the last finite bound.
    static func quantile(_ q: Double, of histogram: HistogramValue) -> Double? {
        guard histogram.count > 0 else { return nil }
        let rank = Int((Double(histogram.count) * q).rounded(.up))
        guard let bucket = histogram.buckets.first(where: { $0.count >= rank }), bucket.upperBound.isFinite else { return nil }
        return bucket.upperBound
    }

    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return ms < 10 ? "\((ms * 10).rounded() / 10) ms" : "\(Int(ms.rounded())) ms"
    }
}
