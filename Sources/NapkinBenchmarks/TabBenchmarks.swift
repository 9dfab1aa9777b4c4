import NapkinHTTP
import NapkinTesting
import NapkinWeb
import napkin

/// What a tab costs: the memory of one more page view's tree in a session,
/// and the bytes one changed reading sends down a tab's stream.
enum TabBenchmarks {
    @MainActor
    static func run() async throws {
        try await tabCosts().print()
    }

    @MainActor
    static func tabCosts(tabs: Int = 5_000) async throws -> Table {
        var table = Table(
            "A tab (4-napkin tree, in-process): memory per extra tab of one session, bytes per change",
            columns: ["measure", "value", "target", "result"])
        let (app, router, component) = BenchApp.make(maxTabsPerSession: tabs + 100)
        let browser = TestClient(inProcess: router)
        _ = try await browser.get("/")
        // With napkin.js's cookie, as a browser running it: each page load
        // opens a tab (without it, a browser keeps to its latest tab).
        let cookie = "napkin_session=\(await browser.sessionID ?? ""); napkin_js=1"
        // Warm up, then the baseline.
        for _ in 0..<20 { _ = try await router.respond(to: Request(method: .get, target: "/", headers: ["Cookie": cookie])) }
        trimHeap()
        let before = residentBytes()
        // Each page load without a tab id opens a tab with its own tree.
        for _ in 0..<tabs {
            _ = try await router.respond(to: Request(method: .get, target: "/", headers: ["Cookie": cookie]))
        }
        trimHeap()
        let perTab = Double(residentBytes() - before) / Double(tabs)
        let session = app.session(id: await browser.sessionID ?? "")
        precondition((session?.tabs.count ?? 0) >= tabs, "tabs were released")
        table.add("resident memory per extra tab (KiB)", fmt(perTab / 1024, 2), "-", "info")

        // One reading changes: what goes down the stream, event frame included.
        let stream = try await browser.events()
        _ = try await stream.nextPatch()
        await component.ticker.send(4242)
        let patch = try await stream.nextPatch { $0.html.contains("Reading: 4242°F") }
        table.add("bytes on the wire for one changed reading", "\(patch.wireBytes)", "-", "info")
        stream.close()
        await app.shutdown()
        return table
    }
}
