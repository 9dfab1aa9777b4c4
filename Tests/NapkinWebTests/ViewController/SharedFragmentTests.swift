import NapkinHTTP
import NapkinTesting
import Testing
import napkin
@testable import NapkinWeb

/// A shared fragment is rendered once per change and sent, as the same
/// bytes, to every tab that shows it.
@Suite("Shared fragments", .timeLimit(.minutes(1)))
@MainActor
struct SharedFragmentTests {
    /// An app whose root shows `line` at `/` and nothing of it at `/plain`.
    @MainActor final class Harness {
        let line = SharedFragment("line", initial: 0) { value in "<p class=\"line\">Line \(value)</p>" }
        let renders: Counter
        let app: NapkinApp
        let router: HTTPRouter

        init(metrics: MetricsRegistry? = nil) {
            let renders = Counter()
            self.renders = renders
            let line = line
            // A tab the test reads without a stream stays past napkin's 3 s grace,
            // however slowly a loaded machine runs the test.
            var configuration = NapkinConfiguration(tabGracePeriod: .seconds(60))
            configuration.metrics = metrics
            app = NapkinApp(component: EmptyComponent(), configuration: configuration) { _ in
                RootRouter(interactor: Root(), viewController: RootView(line: line, renders: renders))
            }
            var router = HTTPRouter()
            app.mount(on: &router)
            self.router = router
        }

        func client() -> TestClient { TestClient(inProcess: router) }
    }

    @MainActor final class Counter { var count = 0 }

    final actor Root: Interactable {}

    /// Claims `/` and `/plain`; the view shows the line at `/` only.
    final class RootRouter: LaunchRouter<Root, RootView>, WebRouting {
        func navigate(to path: WebPath) async -> Bool {
            viewController.plain = path.segments == ["plain"]
            return path.isRoot || viewController.plain
        }
    }

    @Observable final class RootView: WebViewController {
        @ObservationIgnored let line: SharedFragment<Int>
        @ObservationIgnored let renders: Counter
        var plain = false

        init(line: SharedFragment<Int>, renders: Counter) {
            self.line = line
            self.renders = renders
        }

        override var napkinName: String { "Root" }

        override func body() -> HTML {
            renders.count += 1
            return plain ? "<p>plain</p>" : "<main>\(shared(line))</main>"
        }
    }

    @Test("one change reaches every tab of every session as the same patch, and re-renders no fragment")
    func oneChangeEveryTab() async throws {
        let harness = Harness()
        let ada = harness.client(), bob = harness.client()
        #expect(try await ada.get("/").text.contains("<p class=\"line\">Line 0</p>"))
        _ = try await bob.get("/")
        let adaStream = try await ada.events(), bobStream = try await bob.events()
        let whole = try await adaStream.nextPatch()
        _ = try await bobStream.nextPatch()
        let rendersBefore = harness.renders.count

        harness.line.update(1)
        let adaPatch = try await adaStream.nextPatch()
        let bobPatch = try await bobStream.nextPatch()
        #expect(adaPatch.html == "<div class=\"napkin\" id=\"\(adaPatch.id)\" data-napkin=\"line\"><p class=\"line\">Line 1</p></div>")
        #expect(adaPatch.id != whole.id, "the line alone, not the page")
        #expect(bobPatch.id == adaPatch.id && bobPatch.html == adaPatch.html, "the same place on every tab")
        #expect(harness.renders.count == rendersBefore, "no fragment's body ran")
        #expect(harness.line.viewerCount == 2)

        // A page load after the change shows it: the cached page was dropped.
        let again = try await ada.get("/")
        #expect(again.text.contains("Line 1"))
        adaStream.close(); bobStream.close()
        await harness.app.shutdown()
    }

    @Test("an update offered to a stream records its fan-out lag once; one that changes nothing records none")
    func fanOutLag() async throws {
        let registry = MetricsRegistry()
        let harness = Harness(metrics: registry)
        let ada = harness.client(), bob = harness.client()
        _ = try await ada.get("/")
        _ = try await bob.get("/")
        let adaStream = try await ada.events(), bobStream = try await bob.events()
        _ = try await adaStream.nextPatch()
        _ = try await bobStream.nextPatch()
        let lags = { () -> Int? in
            guard case .histogram(let value) = registry.currentSnapshot().family("napkin_fanout_lag_seconds")?.series.first?.value else { return nil }
            return value.count
        }
        let before = try #require(lags())
        // The update patches both tabs and records once, when the last is offered.
        harness.line.update(1)
        #expect(lags() == before + 1)
        harness.line.update(1)
        #expect(lags() == before + 1, "the same HTML is sent nowhere")
        _ = try await adaStream.nextPatch()
        adaStream.close(); bobStream.close()
        await harness.app.shutdown()
    }

    @Test("a value with the same HTML sends nothing")
    func sameHTMLSendsNothing() async throws {
        let harness = Harness()
        let client = harness.client()
        _ = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        harness.line.update(0)
        harness.line.update(2)
        let next = try await stream.nextPatch()
        #expect(next.html.contains("Line 2"), "the unchanged value sent nothing before it")
        stream.close()
        await harness.app.shutdown()
    }

    @Test("a view that stops showing it, or leaves the page, is forgotten at once; a tab without a stream catches up on reconnect")
    func leaversAndLateComers() async throws {
        let harness = Harness()
        let leaver = harness.client(), late = harness.client()
        _ = try await leaver.get("/")
        let stream = try await leaver.events()
        _ = try await stream.nextPatch()
        _ = try await leaver.navigate(to: "/plain")
        let latePage = try await late.get("/")
        let lastSeen = try #require(latePage.headers["X-Napkin-Event-ID"].flatMap { UInt64($0) })

        #expect(harness.line.viewerCount == 1, "the tab now at /plain let go of it")
        // A tree built to answer JSON shows it, and lets go when torn down.
        _ = try await late.get("/", headers: ["Accept": "application/json"])
        #expect(harness.line.viewerCount == 1)

        harness.line.update(3)
        harness.line.update(4)
        // The late tab had no stream: it is sent the whole page, as of now.
        let lateStream = try await late.events(lastEventID: lastSeen)
        let page = try await lateStream.nextPatch()
        #expect(page.html.contains("Line 4"))
        stream.close(); lateStream.close()
        await harness.app.shutdown()
    }

    @Test("following a subscription shows each value; stopping lets go of it")
    func follows() async throws {
        let values = StateBroadcaster(5)
        let harness = Harness()
        let client = harness.client()
        _ = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        harness.line.follow(await values.subscribe())
        #expect(try await stream.nextPatch().html.contains("Line 5"))
        await values.send(6)
        #expect(try await stream.nextPatch().html.contains("Line 6"))
        #expect(await values.subscriberCount == 1)
        harness.line.stopFollowing()
        while await values.subscriberCount > 0 { await Task.yield() }
        stream.close()
        await harness.app.shutdown()
    }

    @Test("following at most every interval shows a value at once after a quiet spell, and a burst's latest once the interval is up")
    func followsAtMostEvery() async throws {
        // The line starts at 0: the replayed 0 changes nothing, so it is no show.
        // Deliveries wait as long as a slow run needs.
        let values = StateBroadcaster(0, deliveryTimeout: .seconds(60))
        let harness = Harness()
        let interval = Duration.seconds(2)
        let clock = ContinuousClock()
        harness.line.follow(await values.subscribe(), atMostEvery: interval)
        // Delivered means handled: the first value is shown at once.
        let before = clock.now
        await values.deliver(2)
        #expect(harness.line.value == 2)
        await values.deliver(3)
        await values.deliver(4)
        // (A machine so busy that the interval passed meanwhile shows 3 at once.)
        if clock.now - before < interval {
            #expect(harness.line.value == 2, "a value within the interval was shown at once")
        }
        let shown = before
        // The burst's latest, once the interval is up (its end is the only signal).
        while harness.line.value != 4, clock.now - shown < .seconds(30) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(harness.line.value == 4)
        #expect(clock.now - shown >= interval)
        harness.line.stopFollowing()
        await harness.app.shutdown()
    }
}
