import Foundation
import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Live updates", .timeLimit(.minutes(1)))
@MainActor
struct LiveUpdateTests {
    @Test("a presenter change becomes a patch of its fragment on the session's stream", arguments: TestApp.Mode.allCases)
    func patchOnChange(mode: TestApp.Mode) async throws {
        let (testApp, client, page, stream) = try await openTab(mode)
        #expect(stream.status == 200)
        let initial = try await stream.nextPatch()
        #expect(initial.html.contains("Count: 0"))
        _ = try await client.submit(page, button: "Increment", javascript: true)
        let patch = try await stream.nextPatch()
        #expect(patch.html.contains("Count: 1"))
        #expect(patch.html.hasPrefix("<div class=\"napkin\" id=\"\(patch.id)\""))
        #expect((patch.eventID ?? 0) > (initial.eventID ?? 0))
        stream.close()
        await testApp.stop()
    }

    @Test("a main-actor test's predicate runs on the main actor and may use the test's own state", arguments: TestApp.Mode.allCases)
    func predicateOnTheCallersActor(mode: TestApp.Mode) async throws {
        let (testApp, client, page, stream) = try await openTab(mode)
        _ = try await client.submit(page, button: "Increment", javascript: true)
        // A mutable local: a `@Sendable` predicate could not capture it.
        var looked: [String] = []
        let patch = try await stream.nextPatch { patch in
            MainActor.preconditionIsolated()
            looked.append(patch.html)
            return patch.html.contains("Count: 1")
        }
        #expect(patch.html.contains("Count: 1"))
        // The page as of connecting came first and was skipped.
        #expect(looked.first?.contains("Count: 0") == true)
        #expect(looked.last == patch.html)
        stream.close()
        await testApp.stop()
    }

    @Test("a page's own event id means no catch-up patch; an older one gets the whole page")
    func lastEventID() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/")
        let warm = try await client.events()
        _ = try await warm.nextPatch()
        _ = try await client.submit(page, button: "Increment", javascript: true)
        let latest = try #require(try await warm.nextPatch().eventID)

        let behind = try await client.events(lastEventID: latest - 1)
        let catchUp = try await behind.nextPatch()
        #expect(catchUp.html.contains("data-napkin=\"Home\"") && catchUp.html.contains("Count: 1"))

        let current = try await client.events(lastEventID: latest)
        _ = try await client.submit(page, button: "Save note", fields: ["text": "next"], javascript: true)
        let next = try await current.nextPatch()
        #expect(next.html.contains("next"))
        #expect(next.eventID == latest + 1)
        for stream in [warm, behind, current] { stream.close() }
        await testApp.stop()
    }

    @Test("a change made while no tab listened reaches the tab that connects with the page's event id")
    func changeWhileDisconnected() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let alice = testApp.client()
        let page = try await alice.get("/")
        let eventID = try #require(page.text.firstMatch(of: /data-napkin-event-id="(\d+)"/).flatMap { UInt64($0.1) })
        let bob = testApp.client()
        _ = try await bob.submit(try await bob.get("/"), button: "Bump")
        let stream = try await alice.events(lastEventID: eventID)
        let patch = try await stream.nextPatch()
        #expect(patch.html.contains("Shared: 1"))
        stream.close()
        await testApp.stop()
    }

    @Test("an app-wide service change is patched into every session's stream", arguments: TestApp.Mode.allCases)
    func sharedServicePatchesAllSessions(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        var clients: [TestClient] = []
        var streams: [EventStreamReader] = []
        for _ in 0..<3 {
            let client = testApp.client()
            _ = try await client.get("/")
            let stream = try await client.events()
            _ = try await stream.nextPatch()
            clients.append(client)
            streams.append(stream)
        }
        let page = try await clients[0].get("/")
        _ = try await clients[0].submit(page, button: "Bump", javascript: true)
        for stream in streams {
            let patch = try await stream.nextPatch()
            #expect(patch.html.contains("Shared: 1"))
            stream.close()
        }
        await testApp.stop()
    }

    @Test("a tab that reads nothing while fifty changes happen then gets the latest state, not fifty patches")
    func slowTabEndToEnd() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        var page = try await client.get("/")
        let cookie = "napkin_session=\(try #require(await client.sessionID))"
        let response = try await testApp.router.respond(
            to: Request(method: .get, target: WebSession.eventsPath, headers: ["Cookie": cookie, "Host": "napkin.test"]))
        guard case .events = response.body else {
            Issue.record("the event stream has no body")
            return
        }
        for _ in 0..<50 {
            page = try await client.submit(page, button: "Increment")
        }
        _ = try await client.submit(page, button: "Save note", fields: ["text": "after"], javascript: true)
        var iterator = response.body.chunks().makeAsyncIterator()
        var parser = EventStreamParser()
        var events: [ServerSentEvent] = []
        while !(events.last?.data.contains("after") ?? false), let chunk = try await iterator.next() {
            events += parser.feed(chunk)
        }
        // At most the one event the body fetched ahead (the page as of
        // connecting), then the latest state: never the fifty in between.
        #expect(events.count <= 2)
        #expect(events.last?.data.contains("Count: 50") == true)
        await testApp.stop()
    }

    @Test("typed markup comes back escaped in HTML, JSON and patches", arguments: TestApp.Mode.allCases)
    func escapingEverywhere(mode: TestApp.Mode) async throws {
        let (testApp, client, page, stream) = try await openTab(mode)
        _ = try await stream.nextPatch()
        let attack = "<script>alert(1)</script>"
        _ = try await client.submit(page, button: "Save note", fields: ["text": attack], javascript: true)

        let patchEvent = try await stream.next()
        #expect(!patchEvent.data.contains("<script>alert"))
        let patch = try JSONDecoder().decode(EventStreamReader.Patch.self, from: Data(patchEvent.data.utf8))
        #expect(patch.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let html = try await client.get("/").text
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains(attack))
        let json = try await client.get("/", headers: ["Accept": "application/json"])
        #expect(!json.text.contains("<script>"))
        #expect(json.text.contains("\\u003cscript\\u003e"))
        let tree = try json.json(JSONValue.self)
        #expect(tree.napkin(named: "Home")?["state"]?["note"]?.stringValue == attack)
        stream.close()
        await testApp.stop()
    }

    /// A started app, a client, its first page and that tab's event stream.
    private func openTab(_ mode: TestApp.Mode) async throws -> (TestApp, TestClient, TestResponse, EventStreamReader) {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        return (testApp, client, page, try await client.events())
    }
}
