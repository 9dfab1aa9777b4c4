import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Dashboard metrics", .timeLimit(.minutes(1)))
@MainActor
struct MetricsReadingTests {
    @Test("requests by route pattern with their status classes, and the figures the registry holds")
    func routes() async throws {
        let registry = MetricsRegistry()
        var router = HTTPRouter()
        router.get("/items/:id") { _ in .text("item") }
        router.measure(in: registry)
        for target in ["/items/1", "/items/2", "/items/3", "/nowhere"] {
            _ = try await router.respond(to: Request(method: .get, target: target))
        }
        let reading = MetricsReading(await registry.snapshot())
        let items = try #require(reading.routes.first { $0.route == "/items/:id" })
        #expect(items.requests == 3 && items.byStatus["2xx"] == 3)
        let unmatched = try #require(reading.routes.first { $0.route == "unmatched" })
        #expect(unmatched.byStatus["4xx"] == 1)
        #expect(reading.routes.first?.route == "/items/:id", "busiest first")
        #expect(!reading.routes.contains { $0.route == "/nowhere" }, "a raw path is never a row")
    }

    @Test("lags show as the bucket of their 99th percentile; presence as its entries by topic")
    func lagsAndPresence() {
        let registry = MetricsRegistry()
        registry.histogram("napkin_fanout_lag_seconds", help: "Fan-out.").record(0.003)
        registry.gauge("napkin_presence_entries", help: "Present.", labels: ["topic": "diners"]) { 12 }
        let figures = MetricsReading(registry.currentSnapshot()).figures
        #expect(figures.contains(.init(label: "Fan-out lag, 99th percentile", value: "≤ 5.0 ms")), "\(figures)")
        #expect(figures.contains(.init(label: "Present in diners", value: "12")))
        #expect(!figures.contains { $0.label.hasPrefix("Server loop lag") }, "no figure for a metric the registry lacks")
    }

    @Test("the dashboard's overview shows them live")
    func overview() async throws {
        let registry = MetricsRegistry()
        let testApp = try await TestApp.start(.inProcess)
        let dashboard = NapkinDashboard(observing: testApp.app, metrics: registry, every: .milliseconds(20), configure: TestApp.slowRunGrace)
        var router = HTTPRouter()
        dashboard.mount(on: &router)
        let onlooker = TestClient(inProcess: router)
        _ = try await onlooker.get(NapkinDashboard.path)
        let stream = try await onlooker.events()
        registry.counter("napkin_patches_sent_total", help: "Patches.").increment(by: 41)
        let patch = try await stream.nextPatch { $0.html.contains("<dd>41</dd>") }
        #expect(patch.html.contains("<dt>Patches sent</dt>"))
        #expect(patch.html.contains("Requests by route"))
        stream.close()
        await dashboard.shutdown()
        await testApp.stop()
    }

    @Test("a quantile is the bound of the bucket that holds it")
    func quantile() throws {
        let registry = MetricsRegistry()
        let histogram = registry.histogram("test_seconds", help: "Test.", buckets: [0.01, 0.1])
        for _ in 0..<90 { histogram.record(0.005) }
        for _ in 0..<9 { histogram.record(0.05) }
        histogram.record(5)
        guard case .histogram(let value)? = registry.currentSnapshot().family("test_seconds")?.series.first?.value else {
            Issue.record("no histogram")
            return
        }
        #expect(MetricsReading.quantile(0.5, of: value) == 0.01)
        #expect(MetricsReading.quantile(0.99, of: value) == 0.1)
        #expect(MetricsReading.quantile(1, of: value) == nil)
    }
}
