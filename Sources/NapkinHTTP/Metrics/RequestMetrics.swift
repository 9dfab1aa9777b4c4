/// What ``HTTPRouter/measure(in:)`` records per request: a count by route
/// pattern and status class, and a latency histogram by route pattern.
///
/// Labels are bounded: a route's pattern as it was registered, or one of a
/// few fixed names for answers no route gave (``Route``). A path nobody
/// registered never becomes a label.
final class RequestMetrics: Sendable {
    /// The route label of answers no route pattern gave.
    enum Route {
        /// Static files answered ahead of routing (``HTTPRouter/fastPath(_:)``).
        static let staticFiles = "static"
        /// The router's fallback (an app's pages, static files, its 404s).
        static let fallback = "fallback"
        /// No route and no fallback: the router's own 404.
        static let unmatched = "unmatched"
        /// The server answered itself (a refused head, a body past its limit).
        static let server = "server"
        /// A middleware answered without passing the request on.
        static let middleware = "middleware"
    }

    /// The series of one route label.
    final class Series: Sendable {
        /// Requests by status class, `1xx` to `5xx`.
        let byClass: [Counter]
        let latency: Histogram

        init(route: String, registry: MetricsRegistry) {
            byClass = (1...5).map { status in
                registry.counter(
                    "napkin_http_requests_total", help: "HTTP requests answered, by route pattern and status class.",
                    labels: ["route": route, "status": "\(status)xx"])
            }
            latency = registry.histogram(
                "napkin_http_request_duration_seconds", help: "Time from a request's head to its response, by route pattern.",
                labels: ["route": route])
        }

        /// Counts a request answered with `status` that began at `start`
        /// (``MonotonicNanoseconds``).
        func record(status: Int, since start: UInt64) {
            byClass[min(max(status / 100, 1), 5) - 1].increment()
            latency.record(nanoseconds: MonotonicNanoseconds.now() &- start)
        }
    }

    let registry: MetricsRegistry
    let staticFiles: Series
    let fallback: Series
    let unmatched: Series
    let server: Series
    let middleware: Series

    init(registry: MetricsRegistry) {
        self.registry = registry
        staticFiles = Series(route: Route.staticFiles, registry: registry)
        fallback = Series(route: Route.fallback, registry: registry)
        unmatched = Series(route: Route.unmatched, registry: registry)
        server = Series(route: Route.server, registry: registry)
        middleware = Series(route: Route.middleware, registry: registry)
    }

    /// The status an outcome is logged and counted with: the response's,
    /// an ``HTTPError``'s own, else `500`.
    static func status(of outcome: Result<Response, any Error>) -> Int {
        switch outcome {
        case .success(let response): response.status.code
        case .failure(let error as HTTPError): error.status.code
        case .failure: 500
        }
    }

    /// The status of an answer at hand, as ``status(of:)`` gives it; nil for
    /// work still to run. Matched here rather than through `status(of:)`,
    /// which would copy the response out of the answer.
    static func immediateStatus(of answer: borrowing Answer) -> Int? {
        switch answer {
        case .immediate(.success(let response)): response.status.code
        case .immediate(.failure(let error as HTTPError)): error.status.code
        case .immediate(.failure): 500
        case .mainActor, .task: nil
        }
    }

    /// The series of `code` (see ``RouteChoice``), given the routes' series.
    func series(_ code: Int, routes: [Series]) -> Series {
        if code >= 0, code < routes.count { return routes[code] }
        switch code {
        case RouteChoice.staticFiles: return staticFiles
        case RouteChoice.fallback: return fallback
        case RouteChoice.unmatched: return unmatched
        case RouteChoice.server: return server
        default: return middleware
        }
    }
}
