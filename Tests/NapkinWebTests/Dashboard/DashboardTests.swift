import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Dashboard", .timeLimit(.minutes(1)))
@MainActor
struct DashboardTests {
    /// The test app, its dashboard (refreshing often, so patches come soon)
    /// and a browser on the dashboard.
    private func start() async throws -> (TestApp, NapkinDashboard, TestClient) {
        let testApp = try await TestApp.start(.inProcess)
        let dashboard = NapkinDashboard(observing: testApp.app, every: .milliseconds(20), configure: TestApp.slowRunGrace)
        var router = HTTPRouter()
        dashboard.mount(on: &router)
        return (testApp, dashboard, TestClient(inProcess: router))
    }

    private func stop(_ testApp: TestApp, _ dashboard: NapkinDashboard) async {
        await dashboard.shutdown()
        await testApp.stop()
    }

    @Test("the overview counts the app's sessions, tabs and streams, and lists sessions by handle, never by id")
    func overview() async throws {
        let (testApp, dashboard, onlooker) = try await start()
        let alice = testApp.client()
        _ = try await alice.get("/")
        _ = try await alice.tab().get("/")
        let bob = testApp.client()
        _ = try await bob.get("/")
        let stream = try await bob.events()
        _ = try await stream.nextPatch()

        // The figures are read every interval, so a slow run's first page
        // can show the reading before; the page's stream brings the next.
        _ = try await onlooker.get(NapkinDashboard.path)
        let figures = try await onlooker.events()
        _ = try await figures.nextPatch {
            $0.html.contains("data-figure=\"sessions\">2<") && $0.html.contains("data-figure=\"tabs\">3<")
                && $0.html.contains("data-figure=\"streams\">1<")
        }
        figures.close()
        let page = try await onlooker.get(NapkinDashboard.path)
        #expect(page.status == 200)
        for id in [await alice.sessionID, await bob.sessionID] {
            let id = try #require(id)
            #expect(!page.text.contains(id), "a session id must not be shown")
        }
        #expect(page.links.filter { $0.href.hasPrefix(NapkinDashboard.path + "/sessions/") }.count == 2)
        // The dashboard's own session has a cookie of its own: the app's
        // cookie, on the same host, is not overwritten.
        let cookies = await onlooker.cookies
        #expect(cookies[NapkinDashboard.cookieName] != nil)
        #expect(cookies[WireProtocol.Cookie.session] == nil)
        stream.close()
        await stop(testApp, dashboard)
    }

    @Test("the overview's figures are patched live as the app changes")
    func live() async throws {
        let (testApp, dashboard, onlooker) = try await start()
        _ = try await onlooker.get(NapkinDashboard.path)
        let stream = try await onlooker.events()
        _ = try await stream.nextPatch { $0.html.contains("data-figure=\"sessions\">0<") }
        _ = try await testApp.client().get("/")
        let patch = try await stream.nextPatch { $0.html.contains("data-figure=\"sessions\">1<") }
        #expect(patch.html.contains("data-figure=\"tabs\">1<"))
        stream.close()
        await stop(testApp, dashboard)
    }

    @Test("a session's page shows each tab's tree: names, slots, active state and presenter state, updated live")
    func inspector() async throws {
        let (testApp, dashboard, onlooker) = try await start()
        let person = testApp.client()
        let home = try await person.get("/")
        _ = try await person.submit(home, button: "Save note", fields: ["text": "<b>hi</b>"])
        let overview = try await onlooker.get(NapkinDashboard.path)
        let link = try #require(overview.links.first { $0.href.hasPrefix(NapkinDashboard.path + "/sessions/") })
        let page = try await onlooker.get(link.href)
        #expect(page.status == 200)
        #expect(page.text.contains("<span class=\"dash-name\">Home</span>"))
        #expect(page.text.contains("dash-active"))
        #expect(page.text.contains("&lt;b&gt;hi&lt;/b&gt;"), "presenter state is shown, escaped")
        #expect(!page.text.contains("<b>hi</b>"))

        let stream = try await onlooker.events()
        _ = try await stream.nextPatch()
        _ = try await person.get("/detail")
        let patch = try await stream.nextPatch { $0.html.contains("in slot <code>detail</code>") }
        #expect(patch.html.contains("Detail"))
        stream.close()
        await stop(testApp, dashboard)
    }

    @Test("an unknown handle says so; a path that is not the dashboard's is a 404")
    func unknown() async throws {
        let (testApp, dashboard, onlooker) = try await start()
        let gone = try await onlooker.get(NapkinDashboard.path + "/sessions/0123456789abcdef")
        #expect(gone.status == 200)
        #expect(gone.text.contains("holds no session by this handle"))
        for path in ["/_napkin/dashboard/sessions/xyz", "/_napkin/dashboard/sessions/0123456789ABCDEF", "/_napkin/other", "/pit"] {
            #expect(try await onlooker.get(path).status == 404, "\(path)")
        }
        #expect(try await onlooker.get("/").status == 303)
        await stop(testApp, dashboard)
    }

    @Test("looking at a session is not a use of it: its idle clock keeps running")
    func noTouch() async throws {
        let (testApp, dashboard, onlooker) = try await start()
        let person = testApp.client()
        _ = try await person.get("/")
        let id = try #require(await person.sessionID)
        let session = try #require(testApp.app.store.peek(id: id))
        let seen = session.lastSeen
        let overview = try await onlooker.get(NapkinDashboard.path)
        let link = try #require(overview.links.first { $0.href.hasPrefix(NapkinDashboard.path + "/sessions/") })
        _ = try await onlooker.get(link.href)
        #expect(session.lastSeen == seen)
        await stop(testApp, dashboard)
    }
}
