import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A region is observed on its own: a change only it reads sends only it.
@Suite("Regions", .timeLimit(.minutes(1)))
@MainActor
struct RegionTests {
    @Test("a change read only inside a region patches the region alone, from the first change on", arguments: TestApp.Mode.allCases)
    func regionPatchesAlone(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        #expect(page.text.contains("data-napkin=\"Home.shared\""))
        let stream = try await client.events()
        let whole = try await stream.nextPatch()

        _ = try await client.submit(page, button: "Bump", javascript: true)
        let shared = try await stream.nextPatch { $0.html.contains("Shared: 1") }
        #expect(shared.id != whole.id, "the region, not the Home fragment")
        #expect(!shared.html.contains("Count:"))
        #expect(shared.html.hasPrefix("<div class=\"napkin\" id=\"\(shared.id)\" data-napkin=\"Home.shared\">"))

        // A change the fragment itself reads sends the fragment, region included.
        _ = try await client.submit(page, button: "Increment", javascript: true)
        let home = try await stream.nextPatch { $0.html.contains("Count: 1") }
        #expect(home.id == whole.id)
        #expect(home.html.contains("id=\"\(shared.id)\""))
        #expect(home.html.contains("Shared: 1"))

        _ = try await client.submit(page, button: "Bump", javascript: true)
        let again = try await stream.nextPatch { $0.html.contains("Shared: 2") }
        #expect(again.id == shared.id)
        stream.close()
        await testApp.stop()
    }

    @Test("a body that creates a region runs once, and its markup holds the region in place")
    func newRegionRendersInPlace() {
        let view = CountingRegionView()
        let html = view.render().rendered
        #expect(view.bodyRuns == 1)
        #expect(html.contains("<h1>Board</h1><div class=\"napkin\""))
        #expect(html.contains("<p>Ticks: 0</p></div><footer>"))
        #expect(!html.contains("\u{1}"), "a region's marker left in the markup")

        view.model.ticks = 1
        let again = view.render().rendered
        #expect(again.contains("<p>Ticks: 1</p>"))
        #expect(!again.contains("\u{1}"))
    }
}

@Observable
@MainActor
private final class Ticker {
    var ticks = 0
}

/// A view whose body counts its runs and shows a region on a model of its own.
@MainActor
private final class CountingRegionView: WebViewController {
    let model = Ticker()
    var bodyRuns = 0

    override func body() -> HTML {
        bodyRuns += 1
        return "<h1>Board</h1>\(region("ticks") { [model] in "<p>Ticks: \(model.ticks)</p>" })<footer></footer>"
    }
}
