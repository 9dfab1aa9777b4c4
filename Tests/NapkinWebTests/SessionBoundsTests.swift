import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// The bounds a stranger meets: who gets a session, how many, for how long,
/// and how many streams one session may hold.
@Suite("Session bounds", .timeLimit(.minutes(1)))
@MainActor
struct SessionBoundsTests {
    @Test("HEAD, JSON, a missing file and an unclaimed path never keep a session or its tree", arguments: TestApp.Mode.allCases)
    func onlyPageViewsKeepSessions(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let head = try await client.send(.head, "/")
        #expect(head.status == 200)
        let json = try await client.get("/", headers: ["Accept": "application/json"])
        #expect(json.status == 200)
        #expect(json.text.contains("\"Home\""))
        let icon = try await client.get("/favicon.ico", headers: ["Accept": "image/avif,image/webp,image/*,*/*;q=0.8"])
        #expect(icon.status == 404)
        let nowhere = try await client.get("/nowhere")
        #expect(nowhere.status == 404)
        for response in [head, json, icon, nowhere] { #expect(response.headers["Set-Cookie"] == nil) }
        #expect(await client.sessionID == nil)
        #expect(testApp.app.sessionCount == 0)
        // The trees built to answer them are gone too.
        try await testApp.component.probe.waitForTasks()
        #expect(testApp.component.probe.liveObjects == 0)
        await testApp.stop()
    }

    @Test("past the cap, new sessions push out resting sessions, never the one with an open tab")
    func openTabsSurviveFlood() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(maxSessions: 3))
        let watcher = testApp.client()
        _ = try await watcher.get("/")
        let watcherID = try #require(await watcher.sessionID)
        let stream = try await watcher.events()
        _ = try await stream.nextPatch()
        // The watcher is the least recently used from here on.
        for _ in 0..<10 { _ = try await testApp.client().get("/") }
        #expect(testApp.app.sessionCount == 3)
        #expect(testApp.app.session(id: watcherID) != nil)
        stream.close()
        await testApp.stop()
    }

    @Test("a flood of one-page sessions pushes out only its own kind, never a session that came back")
    func floodEvictsOnlyNewSessions() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(maxSessions: 3))
        let regular = testApp.client()
        _ = try await regular.get("/")
        _ = try await regular.get("/")
        let regularID = try #require(await regular.sessionID)
        for _ in 0..<10 { _ = try await testApp.client().get("/") }
        #expect(testApp.app.sessionCount == 3)
        #expect(testApp.app.session(id: regularID) != nil)
        await testApp.stop()
    }

    @Test("a session never used after its first page expires sooner than one that came back")
    func newSessionsExpireSooner() async throws {
        // Tabs outlive the test's clock: a session without a tab would
        // leave memory whatever its timeout.
        let configuration = NapkinConfiguration(
            sessionIdleTimeout: .seconds(3600), newSessionIdleTimeout: .seconds(60), idleSweepInterval: .seconds(3600),
            tabGracePeriod: .seconds(3600))
        let testApp = try await TestApp.start(.inProcess, configuration: configuration)
        let once = testApp.client()
        _ = try await once.get("/")
        let onceID = try #require(await once.sessionID)
        let twice = testApp.client()
        _ = try await twice.get("/")
        _ = try await twice.get("/")
        let twiceID = try #require(await twice.sessionID)
        testApp.app.advanceSessionClock(by: .seconds(61))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.session(id: onceID) == nil)
        #expect(testApp.app.session(id: twiceID) != nil)
        await testApp.stop()
    }

    @Test("when every session has an open tab, the least recently used one goes")
    func floodOfWatchers() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(maxSessions: 2))
        var ids: [String] = []
        var streams: [EventStreamReader] = []
        for _ in 0..<3 {
            let client = testApp.client()
            _ = try await client.get("/")
            ids.append(try #require(await client.sessionID))
            let stream = try await client.events()
            _ = try await stream.nextPatch()
            streams.append(stream)
        }
        #expect(testApp.app.session(id: ids[0]) == nil)
        #expect(testApp.app.session(id: ids[1]) != nil)
        #expect(testApp.app.session(id: ids[2]) != nil)
        for stream in streams { stream.close() }
        await testApp.stop()
    }

    @Test("HEAD on the event stream opens nothing, however often", arguments: TestApp.Mode.allCases)
    func headOnEventsLeavesNoStream(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        _ = try await client.get("/")
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        for _ in 0..<50 {
            let head = try await client.send(.head, WebSession.eventsPath)
            #expect(head.status == 200)
            #expect(head.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        }
        #expect(session.streamCount == 0)
        await testApp.stop()
    }

    @Test("a session holds at most its cap of streams; the oldest is told it was replaced", arguments: TestApp.Mode.allCases)
    func streamCap(mode: TestApp.Mode) async throws {
        // A departed client is noticed at the next write: heartbeats come often here.
        let testApp = try await TestApp.start(mode, configuration: NapkinConfiguration(maxStreamsPerSession: 2, heartbeat: .milliseconds(50)))
        let client = testApp.client()
        _ = try await client.get("/")
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        let first = try await client.events()
        _ = try await first.nextPatch()
        let second = try await client.events()
        _ = try await second.nextPatch()
        let third = try await client.events()
        _ = try await third.nextPatch()
        let end = try await first.next()
        #expect(end.event == "end" && end.data == "superseded")
        await #expect(throws: TestClientError.self) { try await first.next() }
        await session.waitForStreamCount(2)
        second.close()
        third.close()
        await session.waitForStreamCount(0)
        await testApp.stop()
    }

    @Test("a closed tab leaves nothing behind: the session's stream count returns to zero", arguments: TestApp.Mode.allCases)
    func closedStreamLeavesNoResidue(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: NapkinConfiguration(heartbeat: .milliseconds(50)))
        let client = testApp.client()
        _ = try await client.get("/")
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        #expect(session.streamCount == 1)
        stream.close()
        await session.waitForStreamCount(0)
        await testApp.stop()
    }

    @Test("rotating the id at sign-in: the response carries the new cookie, the old id stops working", arguments: TestApp.Mode.allCases)
    func rotation(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let victim = testApp.client()
        let page = try await victim.get("/")
        let planted = try #require(await victim.sessionID)
        let stream = try await victim.events()
        _ = try await stream.nextPatch()

        let signedIn = try await victim.submit(page, button: "Sign in", javascript: true)
        #expect(signedIn.status == 204)
        let fresh = try #require(await victim.sessionID)
        #expect(fresh != planted)
        #expect(signedIn.headers["Set-Cookie"]?.contains("napkin_session=\(fresh)") == true)
        #expect(testApp.app.session(id: planted) == nil)
        #expect(testApp.app.session(id: fresh) != nil)
        #expect(testApp.app.sessionCount == 1)

        // Whoever planted the old id gets a session of their own, not the victim's.
        let attacker = testApp.client()
        await attacker.setCookie("napkin_session", planted)
        let theirs = try await attacker.get("/")
        #expect(theirs.headers["Set-Cookie"] != nil)
        #expect(await attacker.sessionID != fresh)

        // The victim's open tab still gets patches.
        let again = try await victim.get("/")
        _ = try await victim.submit(again, button: "Increment", javascript: true)
        _ = try await stream.nextPatch { $0.html.contains("Count: 1") }
        stream.close()
        await testApp.stop()
    }

    @Test("a missing field answers a short message, never the decoder's own text", arguments: TestApp.Mode.allCases)
    func shortDecodingErrors(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let form = try #require(page.form(withButton: "Save note"))
        let response = try await client.post(form.action, form: form.posting(["text": nil]), headers: ["X-Napkin": "1"])
        #expect(response.status == 422)
        #expect(response.text.contains(">Text is required.</p>"))
        #expect(!response.text.contains("keyed decoding container"))
        #expect(!response.text.contains("CodingKeys"))
        await testApp.stop()
    }
}

/// The session store's eviction order, with sessions made directly.
@Suite("Session store eviction", .timeLimit(.minutes(1)))
@MainActor
struct SessionStoreEvictionTests {
    private static func session(values: [String: String] = [:], store: SessionStore) -> WebSession {
        let record = SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make(), values: values)
        let values = SessionValues(record: record, store: InMemorySessionRecords(), ttl: .seconds(3600))
        return WebSession(values: values, scope: SessionScope(0) { _ in preconditionFailure("these sessions launch no tree") }, now: store.now)
    }

    @Test("sessions that came back but hold nothing never push out one that holds values")
    func valuedSessionsOutliveReturningFloods() {
        let store = SessionStore(idleTimeout: .seconds(3600), capacity: 10)
        let signedIn = Self.session(values: ["user": "\"Ada\""], store: store)
        _ = store.insert(signedIn)
        _ = store.session(id: signedIn.id)
        for _ in 0..<100 {
            let anonymous = Self.session(store: store)
            _ = store.insert(anonymous)
            // Each comes back for a second page, as the attack's sessions did.
            _ = store.session(id: anonymous.id)
        }
        #expect(store.count == 10)
        #expect(store.session(id: signedIn.id) === signedIn)
    }
}
