import NapkinHTTP
import NapkinTesting
import Testing
import napkin
@testable import NapkinWeb

@Suite("App metrics", .timeLimit(.minutes(1)))
@MainActor
struct AppMetricsTests {
    static func start(
        _ registry: MetricsRegistry, _ configure: (inout NapkinConfiguration) -> Void = { _ in }
    ) async throws -> TestApp {
        var configuration = NapkinConfiguration(layout: PageLayout(title: "Test"), idleSweepInterval: .seconds(3600))
        configuration.metrics = registry
        configure(&configuration)
        return try await TestApp.start(.inProcess, configuration: configuration)
    }

    /// A subscriber that takes one value and then never asks for the next,
    /// until the returned task is cancelled; returns once it has taken it.
    static func stall<Value: Sendable>(_ subscription: Subscription<Value>) async -> Task<Void, Never> {
        let taken = AsyncStream.makeStream(of: Void.self)
        let stalled = Task {
            var iterator = subscription.makeAsyncIterator()
            _ = await iterator.next()
            taken.continuation.yield()
            try? await Task.sleep(for: .seconds(3600))
        }
        for await _ in taken.stream { break }
        return stalled
    }

    @Test("sessions, tabs and streams are copied when metrics are read; a full store's eviction is counted")
    func countsAndCapacity() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry) { $0.maxSessions = 1 }
        let first = testApp.client()
        _ = try await first.get("/")
        let stream = try await first.events()
        var snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_sessions") == 1)
        #expect(snapshot.value("napkin_tabs") == 1)
        #expect(snapshot.value("napkin_event_streams") == 1)
        stream.close()
        _ = try await testApp.client().get("/")
        snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_sessions_evicted_total", ["reason": "capacity"]) == 1)
        #expect(snapshot.value("napkin_sessions") == 1)
        #expect(snapshot.value("napkin_http_requests_total", ["route": "fallback", "status": "2xx"]) == 2)
        await testApp.stop()
    }

    @Test("idle and ended sessions, and tabs past their grace, are counted by reason")
    func evictionsAndReleases() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry) {
            $0.sessionIdleTimeout = .seconds(60)
            $0.tabGracePeriod = .seconds(5)
            $0.newTabGracePeriod = .seconds(5)
        }
        let ended = testApp.client()
        _ = try await ended.get("/")
        try await testApp.app.evict(sessionID: try #require(await ended.sessionID))
        _ = try await testApp.client().get("/")
        testApp.app.advanceSessionClock(by: .seconds(6))
        await testApp.app.evictIdleSessions()
        var snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_sessions_evicted_total", ["reason": "ended"]) == 1)
        #expect(snapshot.value("napkin_tabs_released_total", ["reason": "grace"]) == 1)
        #expect(snapshot.value("napkin_sessions_evicted_total", ["reason": "unviewed"]) == 1)
        _ = try await testApp.client().get("/")
        testApp.app.advanceSessionClock(by: .seconds(61))
        await testApp.app.evictIdleSessions()
        snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_sessions_evicted_total", ["reason": "idle"]) == 1)
        await testApp.stop()
    }

    @Test("a post whose consequences do not settle in time is counted, no longer thrown away")
    func settlementTimeout() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry) { $0.settleTimeout = .milliseconds(50) }
        // A subscriber that takes one value and then never asks for the
        // next: a bump's fan-out to it cannot settle.
        let subscription = await testApp.component.counter.values.subscribe()
        let stalled = await Self.stall(subscription)
        let client = testApp.client()
        let page = try await client.get("/detail")
        _ = try await client.submit(page, button: "Bump")
        let snapshot = await registry.snapshot()
        #expect(snapshot.value("napkin_settlement_timeouts_total", ["where": "action"]) == 1)
        #expect(snapshot.value("napkin_settlement_timeouts_total", ["where": "page"]) == 0)
        stalled.cancel()
        await testApp.stop()
    }

    @Test("/metrics on the app's listener needs the token")
    func tokenOnAppListener() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry) { $0.metricsToken = "a-long-metrics-token" }
        let client = testApp.client()
        #expect(try await client.get("/metrics").status == 401)
        #expect(try await client.get("/metrics", headers: ["Authorization": "Bearer wrong-token-wrong"]).status == 401)
        let scraped = try await client.get("/metrics", headers: ["Authorization": "Bearer a-long-metrics-token"])
        #expect(scraped.status == 200)
        #expect(scraped.text.contains("# TYPE napkin_sessions gauge"))
        await testApp.stop()
    }

    @Test("without a token the app's listener serves no metrics: /metrics is a page path like any other")
    func noTokenNoMetrics() async throws {
        let testApp = try await Self.start(MetricsRegistry())
        let response = try await testApp.client().get("/metrics")
        #expect(!response.text.contains("napkin_sessions"))
        await testApp.stop()
    }

    @Test("a main actor kept busy shows as lag of its timer")
    func mainActorLag() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry)
        // A page is main-actor work: once it is served, the probe (started
        // by the mount's main-actor task) is asleep. Holding the main actor
        // past its quarter second makes its tick late.
        _ = try await testApp.client().get("/")
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(600) {}
        var lag = 0.0
        // The late tick is recorded when the main actor next runs it: look
        // again until it has been (bounded).
        for _ in 0..<200 where lag < 0.1 {
            try await Task.sleep(for: .milliseconds(20))
            if case .histogram(let value) = registry.currentSnapshot().family("napkin_main_actor_lag_seconds")?.series.first?.value {
                lag = value.sum
            }
        }
        #expect(lag >= 0.1)
        await testApp.stop()
    }

    @Test("a change patched to an open stream counts a patch and its bytes")
    func patchesSent() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry)
        let client = testApp.client()
        let page = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let before = registry.currentSnapshot().value("napkin_patches_sent_total") ?? 0
        _ = try await client.submit(page, button: "Increment", javascript: true)
        #expect(try await stream.nextPatch().html.contains("Count: 1"))
        let snapshot = await registry.snapshot()
        #expect((snapshot.value("napkin_patches_sent_total") ?? 0) >= before + 1)
        #expect((snapshot.value("napkin_patch_bytes_sent_total") ?? 0) > 20)
        stream.close()
        await testApp.stop()
    }

    @Test("a change that reaches another session's open stream records its fan-out lag")
    func fanOutLag() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry)
        let watcher = testApp.client(), bumper = testApp.client()
        _ = try await watcher.get("/")
        let stream = try await watcher.events()
        _ = try await stream.nextPatch()
        let lags = { () -> Int in
            guard case .histogram(let value) = registry.currentSnapshot().family("napkin_fanout_lag_seconds")?.series.first?.value else { return -1 }
            return value.count
        }
        let before = lags()
        #expect(before >= 0)
        // The app-wide counter's change reaches the watcher's tree through
        // its service: the flusher patches the watcher's stream, and records
        // the lag in the same main-actor job, before this test runs again.
        _ = try await bumper.submit(try await bumper.get("/"), button: "Bump", javascript: true)
        _ = try await stream.nextPatch(where: { $0.html.contains("Shared: 1") })
        #expect(lags() > before)
        stream.close()
        await testApp.stop()
    }

    @Test("an awaited delivery that goes on without a stalled subscriber is counted")
    func stallsCounted() async throws {
        let registry = MetricsRegistry()
        let testApp = try await Self.start(registry)
        let before = registry.currentSnapshot().value("napkin_broadcast_stalls_total") ?? 0
        let broadcaster = StateBroadcaster(0)
        let subscription = await broadcaster.subscribe()
        let stalled = await Self.stall(subscription)
        await Diagnostics.$handler.withValue({ _ in }) {
            _ = await broadcaster.deliver(1, timeout: .milliseconds(50))
        }
        // Other suites' stalls may count too (one count per process): at least this one.
        #expect((registry.currentSnapshot().value("napkin_broadcast_stalls_total") ?? 0) >= before + 1)
        stalled.cancel()
        await testApp.stop()
    }
}
