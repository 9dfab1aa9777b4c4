import Synchronization

/// One measured request: when it started, and where the router's dispatch
/// notes which series it belongs to (a route's index, or one of the
/// negative codes below) for the measuring layer outside the middleware to
/// record it. An atomic, not a lock: one store and one load per request;
/// and the one allocation the measuring adds, as the finishing closure
/// captures this alone.
final class RouteSlot: Sendable {
    static let middleware = -1, staticFiles = -2, fallback = -3, unmatched = -4, server = -5
    private let chosen = Atomic<Int>(RouteSlot.middleware)
    private let start: ContinuousClock.Instant
    private let metrics: RequestMetrics
    /// The series of the router's routes, by index.
    private let routes: [RequestMetrics.Series]

    init(metrics: RequestMetrics, routes: [RequestMetrics.Series]) {
        start = .now
        self.metrics = metrics
        self.routes = routes
    }

    func choose(_ code: Int) {
        chosen.store(code, ordering: .relaxed)
    }

    /// Counts and times the request under the series its dispatch chose.
    func record(_ outcome: Result<Response, any Error>) {
        let code = chosen.load(ordering: .relaxed)
        let series: RequestMetrics.Series
        if code >= 0, code < routes.count {
            series = routes[code]
        } else {
            switch code {
            case RouteSlot.staticFiles: series = metrics.staticFiles
            case RouteSlot.fallback: series = metrics.fallback
            case RouteSlot.unmatched: series = metrics.unmatched
            case RouteSlot.server: series = metrics.server
            default: series = metrics.middleware
            }
        }
        series.record(status: RequestMetrics.status(of: outcome), since: start)
    }
}
