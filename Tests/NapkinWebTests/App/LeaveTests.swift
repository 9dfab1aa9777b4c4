import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A page's goodbye (`POST /_napkin/leave`): the named tab of the cookie's
/// session starts its grace at once; nobody else can end a tab.
@Suite("Goodbye", .timeLimit(.minutes(1)))
@MainActor
struct LeaveTests {
    static let configuration = NapkinConfiguration(idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(4))

    /// A goodbye as napkin.js sends it, with these fields.
    static func goodbye(_ client: TestClient, _ fields: [(String, String)], origin: String = "http://napkin.test") async throws -> Int {
        try await client.post(WebSession.leavePath, form: fields, headers: ["Origin": origin]).status
    }

    @Test("a goodbye ends the named tab's streams and starts its grace; the session's other tab keeps its stream",
          arguments: TestApp.Mode.allCases)
    func goodbyeStartsTheGrace(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: Self.configuration)
        let leaving = testApp.client()
        _ = try await leaving.get("/")
        let leavingStream = try await leaving.events()
        _ = try await leavingStream.nextPatch()
        let staying = await leaving.tab()
        _ = try await staying.get("/detail")
        let stayingStream = try await staying.events()
        _ = try await stayingStream.nextPatch()
        let id = try #require(await leaving.sessionID)
        let session = try #require(testApp.app.session(id: id))
        let tabID = try #require(await leaving.tabID)

        #expect(try await leaving.close()?.status == 204)
        let tab = try #require(session.tab(id: tabID), "a goodbye does not release the tab at once")
        #expect(tab.streamCount == 0)
        #expect(session.streamCount == 1)
        // The stream the server ended ends for its reader too.
        await #expect(throws: TestClientError.self) { try await leavingStream.next() }

        testApp.app.advanceSessionClock(by: .seconds(4))
        await testApp.app.evictIdleSessions()
        try await testApp.component.probe.waitForResignations(1)
        #expect(session.tabs.map(\.currentPath.description) == ["/detail"])
        stayingStream.close()
        await testApp.stop()
    }

    @Test("a goodbye without the session's token, from another origin, for another session's tab, or malformed is refused")
    func refusals() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: Self.configuration)
        let alice = testApp.client()
        let alicePage = try await alice.get("/")
        let aliceStream = try await alice.events()
        _ = try await aliceStream.nextPatch()
        let aliceTab = try #require(alicePage.tabID)
        let aliceToken = try #require(alicePage.csrfToken)
        let mallory = testApp.client()
        let malloryPage = try await mallory.get("/")
        let malloryToken = try #require(malloryPage.csrfToken)

        #expect(try await Self.goodbye(alice, [("_tab", aliceTab), ("_csrf", malloryToken)]) == 403)
        #expect(try await Self.goodbye(alice, [("_tab", aliceTab)]) == 403)
        #expect(try await Self.goodbye(alice, [("_tab", aliceTab), ("_csrf", aliceToken)], origin: "http://evil.test") == 403)
        // Mallory's cookie and token, Alice's tab: not a tab of Mallory's session.
        #expect(try await Self.goodbye(mallory, [("_tab", aliceTab), ("_csrf", malloryToken)]) == 410)
        // Alice's tab and token without her cookie.
        let stranger = testApp.client()
        #expect(try await Self.goodbye(stranger, [("_tab", aliceTab), ("_csrf", aliceToken)]) == 403)
        #expect(try await Self.goodbye(alice, [("_tab", "not a tab"), ("_csrf", aliceToken)]) == 400)
        #expect(try await Self.goodbye(alice, [("_csrf", aliceToken)]) == 400)
        let json = try await alice.post(WebSession.leavePath, json: ["_tab": aliceTab, "_csrf": aliceToken])
        #expect(json.status == 415)

        let id = try #require(await alice.sessionID)
        #expect(testApp.app.session(id: id)?.tab(id: aliceTab)?.streamCount == 1, "a refused goodbye ended Alice's stream")
        aliceStream.close()
        await testApp.stop()
    }

    @Test("a goodbye is idempotent: again it answers 204 and does not put the tab's release off; once released, 410")
    func idempotent() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: Self.configuration)
        let client = testApp.client()
        let page = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let fields = [("_tab", try #require(page.tabID)), ("_csrf", try #require(page.csrfToken))]
        let id = try #require(await client.sessionID)
        let tab = try #require(testApp.app.session(id: id)?.tab(id: page.tabID))

        #expect(try await Self.goodbye(client, fields) == 204)
        let graceFrom = tab.lastUsed
        testApp.app.advanceSessionClock(by: .seconds(3))
        #expect(try await Self.goodbye(client, fields) == 204)
        #expect(tab.lastUsed == graceFrom)
        testApp.app.advanceSessionClock(by: .seconds(1))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.session(id: id)?.tabs.isEmpty ?? true)
        // The session left memory with its tab: nothing of it to end here.
        #expect(try await Self.goodbye(client, fields) == 410)
        await testApp.stop()
    }
}
