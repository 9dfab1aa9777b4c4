import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A tab nobody views goes after a short grace, the session's last tab
/// too; the session and its record stay.
@Suite("Tab grace", .timeLimit(.minutes(1)))
@MainActor
struct TabGraceTests {
    @Test("the default grace is a few seconds, and tabs are looked at every eighth of it")
    func defaultGrace() {
        let configuration = NapkinConfiguration()
        #expect(configuration.tabGracePeriod <= .seconds(5))
        #expect(configuration.tabGracePeriod >= .seconds(2), "a reload's new tab must come within it")
    }

    @Test("a tab whose page left deactivates after its grace, within a fraction of a second; the session's next page needs no new cookie",
          arguments: TestApp.Mode.allCases)
    func closedTabDeactivatesSoon(mode: TestApp.Mode) async throws {
        // Long enough that a loaded machine opens the stream within it.
        let grace = Duration.milliseconds(2500)
        let testApp = try await TestApp.start(mode, configuration: NapkinConfiguration(tabGracePeriod: grace))
        let client = testApp.client()
        _ = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let id = try #require(await client.sessionID)
        #expect(testApp.component.probe.activations == 1)

        let left = ContinuousClock.now
        #expect(try await client.close()?.status == 204)
        try await testApp.component.probe.waitForResignations(1)
        let took = ContinuousClock.now - left
        #expect(took >= grace, "released before its grace: \(took)")
        // The tab sweep runs every eighth of the grace, so it is a fraction
        // of a second late; the bound leaves room for a loaded machine (a
        // sanitizer run), and still tells a sweep from an idle timeout.
        #expect(took < grace + .seconds(10), "released \(took) after the goodbye")

        // The session left memory with its last tab; its record brings it back.
        let next = try await client.get("/")
        #expect(next.status == 200)
        #expect(next.headers["Set-Cookie"] == nil)
        #expect(await client.sessionID == id)
        #expect(testApp.app.session(id: id)?.tabs.count == 1)
        await testApp.stop()
    }

    @Test("a reload within the grace: the new page's tree is active before the old one resigns")
    func reloadKeepsContinuity() async throws {
        let testApp = try await TestApp.start(
            .inProcess,
            configuration: NapkinConfiguration(idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(40), newTabGracePeriod: .seconds(120)))
        let page = testApp.client()
        _ = try await page.get("/")
        let stream = try await page.events()
        _ = try await stream.nextPatch()
        let id = try #require(await page.sessionID)

        // A reload: the old page says goodbye, the new one is a tab of its own.
        // (Steps of tens of seconds: the session clock runs in real time too.)
        try await page.close()
        testApp.app.advanceSessionClock(by: .seconds(10))
        _ = try await page.get("/")
        await testApp.app.evictIdleSessions()
        let probe = testApp.component.probe
        #expect(probe.activations == 2)
        #expect(probe.resignations == 0)
        #expect(testApp.app.session(id: id)?.tabs.count == 2)

        testApp.app.advanceSessionClock(by: .seconds(30))
        await testApp.app.evictIdleSessions()
        try await probe.waitForResignations(1)
        #expect(testApp.app.session(id: id)?.tabs.count == 1)
        await testApp.stop()
    }

    @Test("without JavaScript a tab's grace counts from its last page view")
    func graceFromLastPageView() async throws {
        let testApp = try await TestApp.start(
            .inProcess, configuration: NapkinConfiguration(idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(40)))
        let browser = TestClient(inProcess: testApp.router, javascript: false)
        let first = try await browser.get("/")
        let id = try #require(await browser.sessionID)
        // Held on to, not looked up again: a lookup counts as a request.
        let session = try #require(testApp.app.session(id: id))
        // The session clock also runs in real time: each step leaves ten
        // seconds for a loaded machine (a sanitizer build) between them.
        testApp.app.advanceSessionClock(by: .seconds(30))
        let second = try await browser.get("/")
        #expect(second.tabID == first.tabID, "a browser without napkin's client keeps its tab")

        testApp.app.advanceSessionClock(by: .seconds(30))
        await testApp.app.evictIdleSessions()
        #expect(session.tabs.map(\.id) == [try #require(first.tabID)])
        testApp.app.advanceSessionClock(by: .seconds(10))
        await testApp.app.evictIdleSessions()
        try await testApp.component.probe.waitForResignations(1)
        #expect(testApp.app.sessionCount == 0)
        await testApp.stop()
    }

    @Test("a watched session's record is kept while it is watched, and for the idle timeout after it leaves memory with its last tab")
    func recordOutlivesTheTab() async throws {
        let records = TouchLog()
        let testApp = try await TestApp.start(
            .inProcess,
            configuration: NapkinConfiguration(
                sessionIdleTimeout: .seconds(600), idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(4),
                sessionRecords: records))
        let client = testApp.client()
        _ = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let id = try #require(await client.sessionID)
        // Watched for longer than the record would have lived: the sweep
        // keeps the record on.
        let opened = records.touches(of: id).count
        // (Ten seconds short of half the idle timeout: the session clock
        // also runs in real time, slowly under a sanitizer.)
        testApp.app.advanceSessionClock(by: .seconds(290))
        await testApp.app.evictIdleSessions()
        #expect(records.touches(of: id).count == opened)
        testApp.app.advanceSessionClock(by: .seconds(10))
        await testApp.app.evictIdleSessions()
        #expect(records.touches(of: id).dropFirst(opened) == [.seconds(600)], "a watched session's record was left to expire")
        testApp.app.advanceSessionClock(by: .seconds(600))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 1, "a watched session is not idle")
        let before = records.touches(of: id).count
        // Long enough since the last touch that leaving extends the record.
        testApp.app.advanceSessionClock(by: .seconds(100))

        try await client.close()
        testApp.app.advanceSessionClock(by: .seconds(4))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 0)
        #expect(records.touches(of: id).dropFirst(before) == [.seconds(600)], "the record was not kept on as the session left memory")
        await testApp.stop()
    }

    @Test("a session that served one page and nothing more keeps its record's short expiry when its tab is released")
    func onePageViewKeepsTheShortExpiry() async throws {
        let records = TouchLog()
        let testApp = try await TestApp.start(
            .inProcess,
            configuration: NapkinConfiguration(
                sessionIdleTimeout: .seconds(600), idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(4),
                newTabGracePeriod: .seconds(4), sessionRecords: records))
        let client = testApp.client()
        _ = try await client.get("/")
        let id = try #require(await client.sessionID)
        testApp.app.advanceSessionClock(by: .seconds(30))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 0, "the tab was not released")
        #expect(records.touches(of: id).isEmpty, "a page view's record was kept for the idle timeout as it left memory")
        await testApp.stop()
    }

    @Test("a page that never opened its stream keeps its tab for the longer grace; one that said goodbye first gets the short one")
    func newTabWaitsLonger() async throws {
        let testApp = try await TestApp.start(
            .inProcess,
            configuration: NapkinConfiguration(idleSweepInterval: .seconds(3600), tabGracePeriod: .seconds(20), newTabGracePeriod: .seconds(60)))
        let loading = testApp.client(), leaving = testApp.client()
        _ = try await loading.get("/")
        _ = try await leaving.get("/")
        // Held on to, not looked up again: a lookup counts as a request.
        let loadingID = try #require(await loading.sessionID), leavingID = try #require(await leaving.sessionID)
        let stillLoading = try #require(testApp.app.session(id: loadingID))
        let left = try #require(testApp.app.session(id: leavingID))
        #expect(try await leaving.close()?.status == 204)

        // (Steps of tens of seconds: the session clock runs in real time too.)
        testApp.app.advanceSessionClock(by: .seconds(30))
        await testApp.app.evictIdleSessions()
        #expect(stillLoading.tabs.count == 1, "a page still loading its script lost its tab")
        #expect(left.tabs.isEmpty, "a page that left kept its tab past the short grace")
        testApp.app.advanceSessionClock(by: .seconds(40))
        await testApp.app.evictIdleSessions()
        #expect(stillLoading.tabs.isEmpty)
        await testApp.stop()
    }
}
