import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A session's tabs: a tree per page view, released when nobody watches
/// them, and capped.
@Suite("Tabs", .timeLimit(.minutes(1)))
@MainActor
struct TabTests {
    static func configuration(maxTabs: Int = 16) -> NapkinConfiguration {
        NapkinConfiguration(layout: PageLayout(title: "Test"), tabGracePeriod: .seconds(60), maxTabsPerSession: maxTabs)
    }

    @Test("each page load without a tab id opens a tab with a tree of its own", arguments: TestApp.Mode.allCases)
    func pageLoadsOpenTabs(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: Self.configuration())
        let first = testApp.client()
        let page = try await first.get("/")
        _ = try await first.submit(page, button: "Increment", javascript: true)
        let second = await first.tab()
        let other = try await second.get("/")
        #expect(other.text.contains("Count: 0"), "the second tab has a tree of its own")
        #expect(try await first.get("/").text.contains("Count: 1"))
        #expect(other.tabID != page.tabID)
        #expect(other.streamPath == "/_napkin/events?tab=\(other.tabID ?? "")")
        let id = try #require(await first.sessionID)
        #expect(testApp.app.session(id: id)?.tabs.count == 2)
        await testApp.stop()
    }

    @Test("a tab without a stream is released after its grace; its stream then answers 410 and a live navigation brings it back",
          arguments: TestApp.Mode.allCases)
    func idleTabsAreReleased(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: Self.configuration())
        let old = testApp.client()
        let oldPage = try await old.get("/")
        let watched = await old.tab()
        _ = try await watched.get("/detail")
        let stream = try await watched.events()
        _ = try await stream.nextPatch()
        let recent = await old.tab()
        _ = try await recent.get("/")
        let id = try #require(await old.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.tabs.count == 3)

        testApp.app.advanceSessionClock(by: .seconds(61))
        await testApp.app.evictIdleSessions()
        // Only the watched tab stays, the most recent one past its grace too.
        #expect(session.tabs.map(\.currentPath.description) == ["/detail"])
        #expect(!session.tabs.contains { $0.id == oldPage.tabID })

        let gone = try await old.events()
        #expect(gone.status == 410)
        let reopened = try await old.navigate(to: "/detail")
        #expect(reopened.status == 200)
        #expect(reopened.tabID == oldPage.tabID)
        #expect(session.tabs.map(\.currentPath.description).sorted() == ["/detail", "/detail"])
        stream.close()
        await testApp.stop()
    }

    @Test("a form of a released tab still posts: the tab comes back at the form's page, under its id",
          arguments: TestApp.Mode.allCases)
    func releasedTabFormPosts(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: Self.configuration())
        let old = testApp.client()
        let page = try await old.get("/detail")
        _ = try await old.tab().get("/")
        testApp.app.advanceSessionClock(by: .seconds(61))
        await testApp.app.evictIdleSessions()
        // Both tabs went, and with them the session from memory.
        let id = try #require(await old.sessionID)
        #expect(testApp.app.session(id: id) == nil)

        let answer = try await old.submit(page, button: "Increment", javascript: true)
        #expect(answer.status == 204)
        let session = try #require(testApp.app.session(id: id))
        let back = try #require(session.tabs.first { $0.id == page.tabID })
        #expect(back.currentPath.description == "/detail")
        #expect(try await old.navigate(to: "/detail").text.contains("Count: 1"))
        await testApp.stop()
    }

    @Test("navigations of one tab sent at once are taken in turn: each answers the page it asked for",
          arguments: TestApp.Mode.allCases)
    func concurrentNavigationsOfOneTab(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: Self.configuration())
        let client = testApp.client()
        _ = try await client.get("/")
        let pages = try await withThrowingTaskGroup(of: (String, TestResponse).self) { group in
            for index in 0..<24 {
                let path = index.isMultiple(of: 2) ? "/" : "/detail"
                group.addTask { (path, try await client.navigate(to: path)) }
            }
            var pages: [(String, TestResponse)] = []
            for try await page in group { pages.append(page) }
            return pages
        }
        for (path, page) in pages {
            #expect(page.status == 200, "\(path) answered \(page.status)")
            #expect(page.text.contains("data-napkin=\"Detail\"") == (path == "/detail"), "\(path) showed another page")
        }
        let id = try #require(await client.sessionID)
        #expect(testApp.app.session(id: id)?.tabs.count == 1)
        await testApp.stop()
    }

    @Test("a tab a request is working with is never released under it, past its grace or past the limit")
    func tabsInUseStay() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: Self.configuration(maxTabs: 8))
        let first = testApp.client()
        let page = try await first.get("/detail")
        let id = try #require(await first.sessionID)
        let session = try #require(testApp.app.session(id: id))
        let busy = try #require(session.tabs.first { $0.id == page.tabID })
        busy.users += 1
        for _ in 0..<12 { _ = try await first.tab().get("/") }
        testApp.app.advanceSessionClock(by: .seconds(61))
        await testApp.app.evictIdleSessions()
        #expect(session.tabs.contains { $0 === busy })
        #expect(busy.currentPath.description == "/detail")
        busy.users -= 1
        await testApp.app.evictIdleSessions()
        #expect(!session.tabs.contains { $0 === busy })
        await testApp.stop()
    }

    @Test("a session keeps at most its tab limit, releasing tabs without a stream first")
    func tabsAreCapped() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: Self.configuration(maxTabs: 8))
        let first = testApp.client()
        _ = try await first.get("/")
        let stream = try await first.events()
        _ = try await stream.nextPatch()
        let watchedTab = try #require(await first.tabID)
        for _ in 0..<20 { _ = try await first.tab().get("/") }
        let id = try #require(await first.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.tabs.count == 8)
        #expect(session.tabs.contains { $0.id == watchedTab }, "the tab with a stream was released")
        // The released tabs' trees are gone: what is left is the kept tabs'.
        try await testApp.component.probe.waitForCancelledTasks()
        let perTree = testApp.component.probe.trackedObjects / 21
        #expect(testApp.component.probe.liveObjects == 8 * perTree)
        stream.close()
        await testApp.stop()
    }

    @Test("a JSON request of a session is answered from a tree of its own and keeps no tab", arguments: TestApp.Mode.allCases)
    func jsonKeepsNoTab(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode, configuration: Self.configuration())
        let browser = testApp.client()
        _ = try await browser.get("/")
        let program = await browser.tab()
        let tree = try await program.tree(at: "/detail")
        #expect(tree["path"]?.stringValue == "/detail")
        let id = try #require(await browser.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.tabs.map(\.currentPath.description) == ["/"])
        await testApp.stop()
    }

    @Test("a live navigation naming a tab of another session opens a tab in the caller's session only")
    func foreignTabIDOpensOwnTab() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: Self.configuration())
        let alice = testApp.client()
        let alicePage = try await alice.get("/")
        let aliceTab = try #require(alicePage.tabID)
        let mallory = testApp.client()
        _ = try await mallory.get("/")
        let answer = try await mallory.get("/detail", headers: ["X-Napkin-Tab": aliceTab, "Sec-Fetch-Dest": "empty"])
        #expect(answer.status == 200)
        let malloryID = try #require(await mallory.sessionID)
        #expect(testApp.app.session(id: malloryID)?.tabs.map(\.currentPath.description).sorted() == ["/", "/detail"])
        let id = try #require(await alice.sessionID)
        #expect(testApp.app.session(id: id)?.tabs.map(\.currentPath.description) == ["/"])
        #expect(try await alice.get("/").text.contains("Count: 0"))
        await testApp.stop()
    }

    @Test("live navigations racing to bring back one tab all wait for its tree: none finds it empty",
          arguments: TestApp.Mode.allCases)
    func racingToBringBackOneTab(mode: TestApp.Mode) async throws {
        // At the cap, bringing a tab back first releases another, which
        // suspends the launch: the other requests find the tab meanwhile.
        let testApp = try await TestApp.start(mode, configuration: Self.configuration(maxTabs: 2))
        let browser = testApp.client()
        _ = try await browser.get("/")
        _ = try await browser.tab().get("/")
        let id = try #require(await browser.sessionID)
        for _ in 0..<20 {
            let returning = SecureToken.make()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await browser.get("/detail", headers: ["X-Napkin-Tab": returning, "Sec-Fetch-Dest": "empty"]).status
                    }
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses == Array(repeating: 200, count: 4))
            #expect(testApp.app.session(id: id)?.tab(id: returning)?.currentPath.description == "/detail")
        }
        await testApp.stop()
    }

    @Test("a session whose every tab is released leaves memory; its record brings it back under its id and CSRF token",
          arguments: TestApp.Mode.allCases)
    func tablessSessionLeavesMemory(mode: TestApp.Mode) async throws {
        // The test sweeps by hand as it moves the clock: a background sweep
        // taking the expired tab first would leave its session to itself.
        var configuration = Self.configuration()
        configuration.idleSweepInterval = .seconds(3600)
        let testApp = try await TestApp.start(mode, configuration: configuration)
        let client = testApp.client()
        let page = try await client.get("/")
        #expect(try await client.submit(page, button: "Sign in", javascript: true).status == 204)
        let signedIn = try await client.navigate(to: "/")
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))

        // Within the grace it stays; past it, its tab goes and so does it.
        // (Counted: looking a session up marks it as used.)
        testApp.app.advanceSessionClock(by: .seconds(30))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 1)
        testApp.app.advanceSessionClock(by: .seconds(31))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 0)

        // The page's form still posts: same id, same token, still signed in.
        #expect(try await client.submit(signedIn, button: "Increment", javascript: true).status == 204)
        let restored = try #require(testApp.app.session(id: id))
        #expect(restored !== session)
        #expect(restored.csrfToken == session.csrfToken)
        #expect(await client.sessionID == id)
        await testApp.stop()
    }
}
