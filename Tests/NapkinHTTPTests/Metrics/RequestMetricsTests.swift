import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct RequestMetricsTests {
    static func measured(_ registry: MetricsRegistry, fallback: Bool = false) -> HTTPRouter {
        var router = HTTPRouter()
        router.measure(in: registry)
        router.get("/pit") { _ in .text("hot") }
        router.get("/users/:id") { request in .text(request.parameters["id"] ?? "") }
        router.get("/boom") { _ in throw HTTPError(.badRequest, "no") }
        router.onMainActor(.get, "/page") { _ in .text("page") }
        if fallback {
            struct Files: HTTPResponder {
                func answer(_ request: Request) -> Answer {
                    .now(request.path == "/app.css" ? .text("body{}") : .text("gone", status: .notFound))
                }
            }
            router.fallback(Files())
        }
        return router
    }

    @Test("requests count by route pattern and status class, and are timed by route pattern")
    func countsByPattern() async throws {
        let registry = MetricsRegistry()
        let router = Self.measured(registry)
        for target in ["/pit", "/users/1", "/users/2", "/boom", "/page", "/nowhere"] {
            _ = try? await router.respond(to: Request(method: .get, target: target))
        }
        _ = try await router.respond(to: Request(method: .post, target: "/pit"))
        let snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_http_requests_total", ["route": "/pit", "status": "2xx"]) == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "/pit", "status": "4xx"]) == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "/users/:id", "status": "2xx"]) == 2)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "/boom", "status": "4xx"]) == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "/page", "status": "2xx"]) == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "unmatched", "status": "4xx"]) == 1)
        #expect(snapshot.value("napkin_http_request_duration_seconds", ["route": "/users/:id"]) == 2)
        #expect(snapshot.total("napkin_http_requests_total") == 7)
    }

    @Test("a request is timed from its arrival, by the latency histogram and the access log alike")
    func timedFromArrival() async throws {
        let registry = MetricsRegistry()
        let log = LogSink()
        var router = Self.measured(registry)
        router.use(AccessLog(sink: log.write))
        var request = Request(method: .get, target: "/pit")
        // It arrived 30 ms before it reaches the router.
        request.arrival -= 30_000_000
        _ = try await router.respond(to: request)
        let snapshot = await registry.snapshot()
        let series = snapshot.family("napkin_http_request_duration_seconds")?.series.first { $0.labels["route"] == "/pit" }
        guard case .histogram(let latency)? = series?.value else {
            Issue.record("no latency histogram for /pit")
            return
        }
        // Not in the 25 ms bucket, in the 50 ms one (unless this machine took 20 ms more).
        #expect(latency.buckets.first { $0.upperBound == 0.025 }?.count == 0)
        #expect(latency.count == 1)
        #expect(latency.sum >= 0.03)
        let micros = log.all.first.flatMap { Int($0.split(separator: " ").last!.dropLast(2)) }
        #expect(micros.map { $0 >= 30_000 } == true)
    }

    @Test("a latency in integer nanoseconds lands in the bucket its seconds would, and sums with observations in seconds")
    func nanosecondLatencies() {
        let histogram = MetricsRegistry().histogram("wait_seconds", help: "Waits.", buckets: [0.001, 0.0025, 1])
        histogram.record(nanoseconds: 1_000_000)
        histogram.record(nanoseconds: 1_000_001)
        histogram.record(nanoseconds: 2_500_000)
        histogram.record(nanoseconds: 5_000_000_000)
        histogram.record(0.5)
        #expect(histogram.value.buckets.map(\.count) == [1, 3, 4, 5])
        #expect(abs(histogram.value.sum - 5.504_500_001) < 1e-12)
    }

    @Test("a 404 counts under one label whatever the path; the fallback's answers under `fallback`")
    func notFoundAndFallback() async throws {
        let registry = MetricsRegistry()
        let router = Self.measured(registry, fallback: true)
        _ = try await router.respond(to: Request(method: .get, target: "/app.css"))
        _ = try await router.respond(to: Request(method: .get, target: "/missing"))
        let snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_http_requests_total", ["route": "fallback", "status": "2xx"]) == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "fallback", "status": "4xx"]) == 1)
    }

    @Test("a middleware answering before routing is counted under `middleware`")
    func middlewareAnswers() async throws {
        struct Gate: Middleware {
            func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
                request.path == "/pit" ? .now(.text("slow down", status: .tooManyRequests)) : next(request)
            }
        }
        let registry = MetricsRegistry()
        var router = Self.measured(registry)
        router.use(Gate())
        _ = try await router.respond(to: Request(method: .get, target: "/pit"))
        let snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_http_requests_total", ["route": "middleware", "status": "4xx"]) == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "/pit", "status": "4xx"]) == 0)
    }

    @Test("a middleware that passes a request on later, from a task, has it counted under `middleware`")
    func deferringMiddleware() async throws {
        struct Later: Middleware {
            func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
                .task { try await next(request).response() }
            }
        }
        let registry = MetricsRegistry()
        var router = Self.measured(registry)
        router.use(Later())
        _ = try await router.respond(to: Request(method: .get, target: "/pit"))
        _ = try await router.respond(to: Request(method: .get, target: "/users/9"))
        let snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_http_requests_total", ["route": "middleware", "status": "2xx"]) == 2)
        #expect(snapshot.total("napkin_http_requests_total") == 2)
    }

    @Test("10,000 random paths and methods leave the label sets as they were")
    func labelSetsStayBounded() async throws {
        let registry = MetricsRegistry()
        let router = Self.measured(registry, fallback: true)
        _ = try await router.respond(to: Request(method: .get, target: "/pit"))
        let before = registry.seriesCount
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019/%._-:*?#\\\"\n{}=".unicodeScalars)
        let methods: [HTTPMethod] = [.get, .post, .put, .delete, .head, .patch]
        for _ in 0..<10_000 {
            let length = Int.random(in: 1...40, using: &generator)
            let path = "/" + String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
            let method = methods.randomElement(using: &generator)!
            _ = try? await router.respond(to: Request(method: method, target: path))
        }
        #expect(registry.seriesCount == before)
        let snapshot = await registry.snapshot()
        #expect(snapshot.total("napkin_http_requests_total") == 10_001)
        let routes = Set(snapshot.family("napkin_http_requests_total")?.series.compactMap { $0.labels["route"] } ?? [])
        #expect(routes == ["/pit", "/users/:id", "/boom", "/page", "static", "fallback", "unmatched", "server", "middleware"])
    }
}
