import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// `TestClient.close()`: a test's tab leaves as a browser's does.
@Suite("Closing a test client's tab", .timeLimit(.minutes(1)))
@MainActor
struct TestClientCloseTests {
    /// A page of a new browser, its stream open, and its session.
    static func watchedPage(of tally: TallyApp) async throws -> (TestClient, TestResponse, EventStreamReader, WebSession) {
        let client = tally.client()
        let page = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let id = try #require(await client.sessionID)
        return (client, page, stream, try #require(tally.app.session(id: id)))
    }

    @Test("close() says goodbye as napkin's client does: the tab's streams end and its grace starts, the tab stays for it",
          arguments: TallyApp.Mode.allCases)
    func goodbye(mode: TallyApp.Mode) async throws {
        let tally = try TallyApp(mode)
        let (client, page, stream, session) = try await Self.watchedPage(of: tally)
        let tab = try #require(session.tab(id: page.tabID))
        #expect(tab.streamCount == 1)

        let answer = try await client.close()
        #expect(answer?.status == 204)
        #expect(tab.streamCount == 0)
        #expect(session.tabs.contains { $0 === tab })
        await #expect(throws: TestClientError.self) { try await stream.next() }
        // The next page is a new tab, as a new browser tab's would be.
        #expect(try await client.get("/").tabID != page.tabID)
        await tally.stop()
    }

    @Test("close(.vanish) only drops the streams, as a browser that quits does: the server finds out on its own",
          arguments: TallyApp.Mode.allCases)
    func vanish(mode: TallyApp.Mode) async throws {
        let tally = try TallyApp(mode)
        let (client, page, _, session) = try await Self.watchedPage(of: tally)

        #expect(try await client.close(.vanish) == nil)
        try await withDeadline(.seconds(10), TimedOut("the server did not see the stream drop")) {
            await session.waitForStreamCount(0)
        }
        #expect(session.tab(id: page.tabID)?.streamCount == 0)
        await tally.stop()
    }

    @Test("closing a tab leaves the browser's other tabs alone")
    func otherTabsStay() async throws {
        let tally = try TallyApp(.inProcess)
        let first = tally.client()
        _ = try await first.get("/")
        let second = await first.tab()
        let secondPage = try await second.get("/")
        let stream = try await second.events()
        _ = try await stream.nextPatch()

        #expect(try await first.close()?.status == 204)
        let id = try #require(await first.sessionID)
        let session = try #require(tally.app.session(id: id))
        #expect(session.tab(id: secondPage.tabID)?.streamCount == 1)
        #expect(try await second.submit(secondPage, button: "Add one", javascript: true).status == 204)
        #expect(try await stream.nextPatch().html.contains("Tally: 1"))
        stream.close()
        await tally.stop()
    }
}
