import Foundation
import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import NapkinStorage
import NapkinTesting
import Testing
@testable import NapkinWeb

/// Health, readiness and draining, as a load balancer and napkin's client
/// see them.
@Suite("Draining", .timeLimit(.minutes(1)))
@MainActor
struct DrainingTests {
    @Test("healthz and readyz answer 200 without a session, a cookie or an access log line", arguments: TestApp.Mode.allCases)
    func probesWhileReady(mode: TestApp.Mode) async throws {
        let log = Lines()
        let testApp = try await TestApp.start(mode, accessLog: log)
        let client = testApp.client()
        let health = try await client.get(NapkinApp.healthPath)
        #expect(health.status == 200)
        let ready = try await client.get(NapkinApp.readyPath)
        #expect(ready.status == 200)
        #expect(ready.text == "ready\n")
        #expect(ready.headers["Set-Cookie"] == nil)
        #expect(await client.sessionID == nil)
        #expect(testApp.app.sessionCount == 0)
        #expect(testApp.app.isReady)
        _ = try await client.get("/api/ping")
        #expect(log.all.count == 1, "\(log.all)")
        #expect(log.all.first?.hasPrefix("GET /api/ping ") == true)
        await testApp.stop()
    }

    @Test("an unreachable session store makes readyz 503; healthz stays 200", arguments: TestApp.Mode.allCases)
    func unreachableStore(mode: TestApp.Mode) async throws {
        let records = SwitchedRecords()
        let testApp = try await TestApp.start(mode, configuration: NapkinConfiguration(sessionRecords: records))
        let client = testApp.client()
        #expect(try await client.get(NapkinApp.readyPath).status == 200)
        records.reachable.withLock { $0 = false }
        let ready = try await client.get(NapkinApp.readyPath)
        #expect(ready.status == 503)
        #expect(ready.text == "session store unreachable\n")
        #expect(try await client.get(NapkinApp.healthPath).status == 200)
        records.reachable.withLock { $0 = true }
        #expect(try await client.get(NapkinApp.readyPath).status == 200)
        await testApp.stop()
    }

    @Test("drain: readyz turns 503, an open stream gets the drain event and ends, a stream asked for later gets it at once",
          arguments: TestApp.Mode.allCases)
    func drainTellsStreamsToLeave(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        _ = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let sessionID = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: sessionID))
        #expect(session.streamCount == 1)

        testApp.app.drain()
        let event = try await stream.next()
        #expect(event.event == WireProtocol.Event.drain)
        #expect(event.data == "2000")
        #expect(session.streamCount == 0)
        #expect(try await client.get(NapkinApp.readyPath).status == 503)
        #expect(try await client.get(NapkinApp.healthPath).status == 200)
        // The reader came back (as napkin's client does) to the same app,
        // still draining: told again, and the stream ends.
        #expect(try await stream.next().event == WireProtocol.Event.drain)
        await #expect(throws: TestClientError.self) { _ = try await stream.next() }
        #expect(session.streamCount == 0)
        // Requests in flight, and new ones on open connections, still work.
        #expect(try await client.get("/").status == 200)
        await testApp.stop()
    }

    @Test("a drained tab's stream comes back through the balancer to another process: same session, same tab, the whole page, then live patches")
    func streamMovesToAnotherProcess() async throws {
        let records = InMemorySessionRecords()
        let first = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(sessionRecords: records))
        let second = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(sessionRecords: records))
        let client = TestClient(transport: Balancer(first: first, second: second))
        let page = try await client.get("/")
        let sessionID = try #require(await client.sessionID)
        let tabID = try #require(await client.tabID)
        #expect(try await client.submit(page, button: "Increment", javascript: true).status == 204)
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        #expect(second.app.sessionCount == 0)

        first.app.drain()
        #expect(try await stream.next().event == WireProtocol.Event.drain)
        // The second process rebuilt the session from its record and the
        // tab at its page, under its id, and sent the whole page.
        let whole = try await stream.nextPatch()
        let moved = try #require(second.app.session(id: sessionID))
        #expect(moved.tab(id: tabID) != nil)
        // The tree is new (its count starts over); the session is not.
        #expect(whole.html.contains("Count: 0"))
        #expect(await client.sessionID == sessionID, "the session was signed out on the way")
        // The page's forms still post (same CSRF token), now to the second process.
        #expect(try await client.submit(page, button: "Increment", javascript: true).status == 204)
        _ = try await stream.nextPatch { $0.html.contains("Count: 1") }
        await first.stop()
        await second.stop()
    }

    @Test("a stream naming an unknown tab without a path still answers 410; with a path, only a well-formed tab id is brought back")
    func bringBackNeedsAPathAndAWellFormedID() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        _ = try await client.get("/")
        let unknown = SecureToken.make()
        #expect(try await client.get("\(WebSession.eventsPath)?tab=\(unknown)", headers: ["Accept": "text/event-stream"]).status == 410)
        #expect(try await client.get("\(WebSession.eventsPath)?tab=not-a-token&path=%2F", headers: ["Accept": "text/event-stream"]).status == 410)
        // HEAD never brings a tab back.
        let sessionID = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: sessionID))
        let before = session.tabs.count
        #expect(try await client.send(.head, "\(WebSession.eventsPath)?tab=\(unknown)&path=%2F").status == 410)
        #expect(session.tabs.count == before)
        await testApp.stop()
    }

    @Test("streams naming unknown tabs with hostile paths: each brought back at a path on this site, and never past the session's tab limit")
    func hostileBringBacks() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        _ = try await client.get("/")
        let sessionID = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: sessionID))
        let limit = testApp.app.configuration.maxTabsPerSession
        let transport = InProcessTransport(responder: testApp.router)
        let paths = ["https://evil.example/", "//evil.example", "/\\evil", "/%0d%0aSet-Cookie:x=1", String(repeating: "/a", count: 4000), "", "nope"]
        for index in 0..<(limit * 2) {
            let tab = SecureToken.make()
            let path = paths[index % paths.count].addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let request = Request(
                method: .get, target: "\(WebSession.eventsPath)?tab=\(tab)&path=\(path)",
                headers: ["Accept": "text/event-stream", "Cookie": "napkin_session=\(sessionID)"])
            let response = try await transport.send(request)
            #expect(response.status == .ok)
            if case .events(let stream) = response.body { stream.finish() }
            let brought = try #require(session.tab(id: tab))
            #expect(brought.currentPath.description.hasPrefix("/"))
            #expect(!brought.currentPath.description.hasPrefix("//"))
            #expect(session.tabs.count <= limit)
        }
        await testApp.stop()
    }
}

/// Access log lines, collected.
final class Lines: Sendable {
    private let lines = Locked<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}

/// Session records whose reachability a test switches.
final class SwitchedRecords: SessionRecordStore {
    let records = InMemorySessionRecords()
    let reachable = Locked(true)
    var isReachable: Bool { reachable.withLock { $0 } }
    func load(id: String) async throws -> SessionRecord? { try await records.load(id: id) }
    func save(_ record: SessionRecord, ttl: Duration) async throws { try await records.save(record, ttl: ttl) }
    func touch(id: String, ttl: Duration) async throws { try await records.touch(id: id, ttl: ttl) }
    func delete(id: String) async throws { try await records.delete(id: id) }
}

/// Two processes behind one load balancer: requests go to the first until
/// it drains (its listener closed), then to the second.
struct Balancer: TestTransport {
    let first: InProcessTransport
    let second: InProcessTransport
    let firstApp: NapkinApp

    @MainActor
    init(first: TestApp, second: TestApp) {
        self.first = InProcessTransport(responder: first.router)
        self.second = InProcessTransport(responder: second.router)
        firstApp = first.app
    }

    func send(_ request: Request) async throws -> Response {
        try await (firstApp.isDraining ? second : first).send(request)
    }
}
