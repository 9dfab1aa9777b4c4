import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
import napkin
@testable import RibHouse

/// Tabs of one session: each keeps its own page and its own live updates;
/// what the session shares (who is signed in) reaches every tab.
@Suite("Rib House tabs", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseTabTests {
    static let board = "data-napkin=\"PitBoardNapkin\""

    /// Two tabs of one signed-in guest, each with its stream open.
    struct TwoTabs {
        let menu: TestClient
        let pit: TestClient
        let menuStream: EventStreamReader
        let pitStream: EventStreamReader

        func close() {
            menuStream.close()
            pitStream.close()
        }
    }

    /// A signed-in guest with two tabs: the first at the menu, the second at
    /// the Pit Board, each with its stream open and its page read.
    private func twoTabs(_ harness: RibHouseHarness) async throws -> TwoTabs {
        let menu = harness.client()
        let signedIn = try await menu.submit(try await menu.get("/"), button: loginButton, fields: ["name": "Ada"])
        #expect(signedIn.text.contains("Ada"))
        let menuStream = try await menu.events()
        _ = try await menuStream.nextPatch()
        let pit = await menu.tab()
        let board = try await pit.get("/pit")
        #expect(board.text.contains(Self.board))
        let pitStream = try await pit.events()
        _ = try await pitStream.nextPatch()
        let menuTab = await menu.tabID
        let pitTab = await pit.tabID
        #expect(menuTab != nil && pitTab != nil && menuTab != pitTab)
        return TwoTabs(menu: menu, pit: pit, menuStream: menuStream, pitStream: pitStream)
    }

    private func paths(_ harness: RibHouseHarness, _ client: TestClient) async throws -> [String] {
        let id = try #require(await client.sessionID)
        let session = try #require(harness.ribHouse.app.session(id: id))
        return session.tabs.map(\.currentPath.description).sorted()
    }

    @Test("two tabs at /pit and / keep their own pages and their own live updates across pit ticks",
          arguments: RibHouseHarness.Mode.allCases)
    func tabsAreIndependent(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let tabs = try await twoTabs(harness)
        let (menu, pit, pitStream) = (tabs.menu, tabs.pit, tabs.pitStream)
        #expect(try await paths(harness, menu) == ["/", "/pit"])

        for _ in 0..<3 {
            let state = await harness.tickPit()
            let row = try #require(state.smokers.first)
            let boardPatch = try await pitStream.nextPatch { $0.html.contains(">\(row.temperature)°F<") }
            #expect(boardPatch.html.contains("smokers"))
        }
        // The menu tab was sent its pit line, never the board.
        await harness.tickPit()
        let later = try await menu.get("/")
        #expect(!later.text.contains(Self.board))
        #expect(try await pit.get("/pit").text.contains(Self.board))
        #expect(try await paths(harness, menu) == ["/", "/pit"])
        tabs.close()
        await harness.stop()
    }

    @Test("signing out in one tab signs the other out, live", arguments: RibHouseHarness.Mode.allCases)
    func logoutReachesEveryTab(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let tabs = try await twoTabs(harness)
        let page = try await tabs.menu.get("/")
        let answer = try await tabs.menu.submit(page, button: "Logout", javascript: true)
        #expect(answer.status == 204)
        let signedOut = try await tabs.pitStream.nextPatch { $0.html.contains(loginButton) }
        #expect(!signedOut.html.contains(Self.board))
        tabs.close()
        await harness.stop()
    }

    @Test("a missing favicon and HEAD /pit leave every tab where it was", arguments: RibHouseHarness.Mode.allCases)
    func subresourcesMoveNoTab(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let tabs = try await twoTabs(harness)
        let icon = try await tabs.pit.get("/favicon.ico", headers: ["Accept": "image/*,*/*;q=0.8", "Sec-Fetch-Dest": "image"])
        #expect(icon.status == 404)
        #expect(try await tabs.menu.send(.head, "/pit").status == 200)
        #expect(try await paths(harness, tabs.menu) == ["/", "/pit"])
        tabs.close()
        await harness.stop()
    }

    @Test("a link click navigates the tab in place: same tab, same stream, and the stream is not sent the new page",
          arguments: RibHouseHarness.Mode.allCases)
    func liveNavigation(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()
        let menu = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let tab = try #require(menu.tabID)
        let stream = try await guest.events()
        _ = try await stream.nextPatch()

        let board = try await menu.click(link: "Pit Board")
        #expect(board.status == 200)
        #expect(board.text.contains(Self.board))
        #expect(board.tabID == tab)
        #expect(board.text.contains("<title>Pit Board · Rib House</title>"))
        let navigated = try #require(board.headers["X-Napkin-Event-ID"].flatMap { UInt64($0) })
        #expect(try await paths(harness, guest) == ["/pit"])

        // The next patch on the stream is a later change, not the board.
        let state = await harness.tickPit()
        let row = try #require(state.smokers.first)
        let next = try await stream.nextPatch()
        #expect((next.eventID ?? 0) > navigated)
        #expect(next.html.contains(">\(row.temperature)°F<") || next.html.contains("Pit \(state.averageTemperature)"))
        #expect(!next.html.contains("aria-current=\"page\">Pit Board"), "the navigation was sent down the stream")

        let back = try await board.click(link: "Menu")
        #expect(back.tabID == tab && !back.text.contains(Self.board))
        #expect(back.text.contains("<title>Menu · Rib House</title>"))
        stream.close()
        await harness.stop()
    }

    @Test("without JavaScript a post's redirect shows the tab the form was on, errors and all",
          arguments: RibHouseHarness.Mode.allCases)
    func plainPostKeepsItsTab(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()
        let welcome = try await guest.get("/")
        await guest.forgetTab()
        let again = try await guest.submit(welcome, button: loginButton, fields: ["name": "   "])
        #expect(again.text.contains("aria-invalid=\"true\""))
        #expect(again.tabID == welcome.tabID)
        let id = try #require(await guest.sessionID)
        let session = try #require(harness.ribHouse.app.session(id: id))
        #expect(session.tabs.count == 1)
        await harness.stop()
    }

    @Test("a browser without JavaScript keeps to one tab: what reached it meanwhile is on its next page",
          arguments: RibHouseHarness.Mode.allCases)
    func withoutJavaScriptOneTab(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client(javascript: false)
        let menu = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        await guest.forgetTab()
        let (_, report) = await Settlement.run(timeout: .seconds(10)) {
            try? await harness.ribHouse.component.sharedAnnouncements.send(Announcement(validating: "Brisket is out"))
        }
        #expect(report.settled)
        await guest.forgetTab()
        let next = try await guest.get("/pit")
        #expect(next.text.contains("Brisket is out"))
        #expect(next.tabID == menu.tabID)
        await harness.stop()
    }

    @Test("eight tabs each get their page and a live stream")
    func eightTabs() async throws {
        let harness = try await RibHouseHarness.start(.live, ticking: false)
        let first = harness.client()
        _ = try await first.submit(try await first.get("/"), button: loginButton, fields: ["name": "Ada"])
        var streams: [EventStreamReader] = []
        for index in 0..<8 {
            let tab = index == 0 ? first : await first.tab()
            let page = try await tab.get(index.isMultiple(of: 2) ? "/" : "/pit")
            #expect(page.status == 200 && page.text.contains("Ada"))
            let stream = try await tab.events()
            #expect(stream.status == 200)
            _ = try await stream.nextPatch()
            streams.append(stream)
        }
        let state = await harness.tickPit()
        for stream in streams {
            _ = try await stream.nextPatch { $0.html.contains("Pit \(state.averageTemperature)") || $0.html.contains("smokers") }
        }
        for stream in streams { stream.close() }
        await harness.stop()
    }
}

@Suite("Rib House tab release", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseTabReleaseTests {
    @Test("released tabs leave no subscriber behind in the app's or the session's services")
    func releasedTabsUnsubscribe() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        for index in 0..<40 { _ = try await guest.tab().get(index.isMultiple(of: 2) ? "/" : "/pit") }
        let id = try #require(await guest.sessionID)
        let session = try #require(harness.ribHouse.app.session(id: id))
        let kept = session.tabs.count
        let onPit = session.tabs.filter { $0.currentPath.description == "/pit" }.count
        #expect(kept == 16)
        // Boards follow the pit, one each; every header shows the one shared
        // pit line, and every menu the one shared specials board.
        #expect(await harness.pitService.subscriberCount == 1 + onPit)
        #expect(await harness.ribHouse.specialsService.followerCount == 1)
        await harness.stop()
    }
}
