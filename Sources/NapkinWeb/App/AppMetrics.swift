import NapkinHTTP
import napkin

/// What a ``NapkinApp`` counts when its configuration names a registry
/// (``NapkinConfiguration/metrics``): its sessions, tabs and streams (copied
/// from the main actor when the metrics are read), sessions evicted and
/// tabs released by reason, settlements that timed out, how long a change
/// takes to reach its tabs' streams, and how late the main actor runs a
/// timer.
final class AppMetrics: Sendable {
    /// Why a session left this process's memory.
    enum Eviction: String, CaseIterable {
        /// Unused past its idle timeout.
        case idle
        /// The least recently used when the store was full.
        case capacity
        /// Ended on purpose (``NapkinApp/evict(sessionID:)``).
        case ended
        /// Its last tab was released; its record lives on.
        case unviewed
    }

    /// Why a tab was released.
    enum Release: String, CaseIterable {
        /// Nobody viewed it for its grace period.
        case grace
        /// The app's tab limit was reached.
        case capacity
        /// Its session's tab limit was reached.
        case session_limit
    }

    /// Where a settlement ran past ``NapkinConfiguration/settleTimeout``.
    enum Settling: String, CaseIterable {
        /// A fragment's action.
        case action
        /// A page's navigation.
        case page
        /// A tab's launch.
        case launch
    }

    let sessions: Gauge
    let tabs: Gauge
    let streams: Gauge
    private let evictions: [Counter]
    private let releases: [Counter]
    private let settlements: [Counter]
    /// How late a quarter-second main-actor timer fires.
    let mainActorLag: Histogram
    private let patches: Counter
    private let patchBytes: Counter
    private let fanOutLag: Histogram

    init(registry: MetricsRegistry) {
        sessions = registry.gauge("napkin_sessions", help: "Live sessions held by this process.")
        tabs = registry.gauge("napkin_tabs", help: "Live tabs (each with its own tree) held by this process.")
        streams = registry.gauge("napkin_event_streams", help: "Open event streams.")
        evictions = Eviction.allCases.map {
            registry.counter("napkin_sessions_evicted_total", help: "Sessions that left this process's memory, by reason.", labels: ["reason": $0.rawValue])
        }
        releases = Release.allCases.map {
            registry.counter("napkin_tabs_released_total", help: "Tabs released (their trees torn down), by reason.", labels: ["reason": $0.rawValue])
        }
        settlements = Settling.allCases.map {
            registry.counter(
                "napkin_settlement_timeouts_total", help: "Settlements that ran past the settle timeout and answered anyway, by where.",
                labels: ["where": $0.rawValue])
        }
        patches = registry.counter("napkin_patches_sent_total", help: "Patch events queued on event streams (one per stream).")
        patchBytes = registry.counter("napkin_patch_bytes_sent_total", help: "Bytes of patch events queued on event streams.")
        fanOutLag = registry.histogram(
            "napkin_fanout_lag_seconds", help: "From a change to the last of its patches offered to the tabs' event streams.",
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5])
        registry.counter("napkin_broadcast_stalls_total", help: "Awaited deliveries that went on without stalled subscribers.") {
            Double(StallLog.count)
        }
        mainActorLag = registry.histogram(
            "napkin_main_actor_lag_seconds", help: "How late a quarter-second timer on the main actor fires.",
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1])
    }

    /// Counts `count` patch events queued, `bytes` in all.
    func patched(_ count: Int, bytes: Int) {
        patches.increment(by: count)
        patchBytes.increment(by: bytes)
    }

    /// Records a change made at `changed` whose last patch was offered to
    /// its streams at `offered`.
    func fannedOut(from changed: ContinuousClock.Instant, to offered: ContinuousClock.Instant) {
        fanOutLag.record(offered - changed)
    }

    func evicted(_ reason: Eviction, count: Int = 1) {
        evictions[Eviction.allCases.firstIndex(of: reason)!].increment(by: count)
    }

    func released(_ reason: Release, count: Int = 1) {
        releases[Release.allCases.firstIndex(of: reason)!].increment(by: count)
    }

    /// Counts a settlement at `place` that did not settle in time.
    func settled(_ report: Settlement.Report, at place: Settling) {
        guard !report.settled else { return }
        settlements[Settling.allCases.firstIndex(of: place)!].increment()
    }
}
