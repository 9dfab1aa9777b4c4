import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct MetricsRegistryTests {
    @Test("a counter, a gauge and a histogram move and read back through a snapshot")
    func metricsMove() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("jobs_total", help: "Jobs.", labels: ["kind": "a"])
        counter.increment()
        counter.increment(by: 2)
        counter.increment(by: -5)
        let gauge = registry.gauge("queue_depth", help: "Depth.")
        gauge.increment(by: 4)
        gauge.decrement()
        let histogram = registry.histogram("wait_seconds", help: "Waits.", buckets: [0.1, 1])
        histogram.record(0.05)
        histogram.record(0.5)
        histogram.record(.seconds(3))
        let snapshot = await registry.snapshot()
        #expect(snapshot.value("jobs_total", ["kind": "a"]) == 3)
        #expect(snapshot.value("jobs_total", ["kind": "b"]) == nil)
        #expect(snapshot.value("queue_depth") == 3)
        #expect(snapshot.value("wait_seconds") == 3)
        guard case .histogram(let value) = snapshot.family("wait_seconds")?.series.first?.value else {
            Issue.record("no histogram")
            return
        }
        #expect(value.buckets.map(\.count) == [1, 2, 3])
        #expect(value.sum == 3.55)
    }

    @Test("the same name and labels give back the same metric; other labels another series")
    func registrationIsIdempotent() {
        let registry = MetricsRegistry()
        let first = registry.counter("hits_total", help: "Hits.", labels: ["route": "/a"])
        let again = registry.counter("hits_total", help: "Hits.", labels: ["route": "/a"])
        let other = registry.counter("hits_total", help: "Hits.", labels: ["route": "/b"])
        #expect(first === again)
        #expect(first !== other)
        #expect(registry.seriesCount == 2)
    }

    @Test("the text format: help, type, escaped label values, histogram buckets with le, +Inf, sum and count")
    func prometheusText() async {
        let registry = MetricsRegistry()
        registry.counter("requests_total", help: "Requests\\served\nso far.", labels: ["path": "a\"b\\c\nd"]).increment()
        registry.histogram("latency_seconds", help: "Latency.", buckets: [0.5, 1], labels: ["route": "/x"]).record(0.75)
        registry.gauge("temperature", help: "Heat.") { 21.5 }
        let text = await registry.snapshot().prometheusText
        #expect(text == """
            # HELP latency_seconds Latency.
            # TYPE latency_seconds histogram
            latency_seconds_bucket{route="/x",le="0.5"} 0
            latency_seconds_bucket{route="/x",le="1"} 1
            latency_seconds_bucket{route="/x",le="+Inf"} 1
            latency_seconds_sum{route="/x"} 0.75
            latency_seconds_count{route="/x"} 1
            # HELP requests_total Requests\\\\served\\nso far.
            # TYPE requests_total counter
            requests_total{path="a\\"b\\\\c\\nd"} 1
            # HELP temperature Heat.
            # TYPE temperature gauge
            temperature 21.5

            """)
    }

    @Test("a sampled gauge is read at each snapshot, and a refresher runs first")
    func sampledAndRefreshed() async {
        let registry = MetricsRegistry()
        let source = registry.gauge("copied", help: "Copied by a refresher.")
        let reads = Counter()
        registry.gauge("sampled", help: "Read when read.") {
            reads.increment()
            return Double(reads.value)
        }
        registry.onSnapshot { source.record(42) }
        #expect(registry.currentSnapshot().value("copied") == 0)
        #expect(await registry.snapshot().value("sampled") == 2)
        #expect(registry.currentSnapshot().value("copied") == 42)
    }

    @Test("totals sum the series whose labels match")
    func totals() async {
        let registry = MetricsRegistry()
        registry.counter("r_total", help: "R.", labels: ["route": "/a", "status": "2xx"]).increment(by: 2)
        registry.counter("r_total", help: "R.", labels: ["route": "/a", "status": "4xx"]).increment(by: 3)
        registry.counter("r_total", help: "R.", labels: ["route": "/b", "status": "2xx"]).increment(by: 5)
        let snapshot = await registry.snapshot()
        #expect(snapshot.total("r_total") == 10)
        #expect(snapshot.total("r_total", matching: ["route": "/a"]) == 5)
        #expect(snapshot.total("r_total", matching: ["status": "2xx"]) == 7)
    }
}
