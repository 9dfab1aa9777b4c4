import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Dashboard token", .timeLimit(.minutes(1)))
@MainActor
struct DashboardGateTests {
    static let token = "a dashboard token for the tests"

    private func start() async throws -> (TestApp, NapkinDashboard, HTTPRouter) {
        let testApp = try await TestApp.start(.inProcess)
        let dashboard = NapkinDashboard(observing: testApp.app, configure: TestApp.slowRunGrace)
        var router = HTTPRouter()
        dashboard.mount(on: &router, token: Self.token)
        return (testApp, dashboard, router)
    }

    @Test("without the token every request of the dashboard is a 401: its page, its stream, its stylesheet's neighbours")
    func refused() async throws {
        let (testApp, dashboard, router) = try await start()
        let stranger = TestClient(inProcess: router)
        for path in [NapkinDashboard.path, NapkinDashboard.path + "/sessions/0123456789abcdef", "/_napkin/events?tab=x",
                     NapkinDashboard.path + "?token=wrong", NapkinDashboard.path + "?token="] {
            let response = try await stranger.get(path)
            #expect(response.status == 401, "\(path)")
            #expect(!response.text.contains("Sessions used last"))
        }
        let wrongBearer = try await router.respond(to: Request(
            method: .get, target: NapkinDashboard.path, headers: ["Authorization": "Bearer not the token"]))
        #expect(wrongBearer.status == .unauthorized)
        let forged = TestClient(inProcess: router)
        await forged.setCookie(DashboardGate.cookieName, Self.token)
        #expect(try await forged.get(NapkinDashboard.path).status == 401, "the token itself is not the cookie")
        await dashboard.shutdown()
        await testApp.stop()
    }

    @Test("the token in the URL once becomes a cookie that opens the dashboard, the URL left without it")
    func tokenOnce() async throws {
        let (testApp, dashboard, router) = try await start()
        let operatorBrowser = TestClient(inProcess: router)
        let first = try await operatorBrowser.get(NapkinDashboard.path + "?token=" + Self.token.replacingOccurrences(of: " ", with: "%20"))
        #expect(first.status == 303)
        #expect(first.headers["Location"] == NapkinDashboard.path)
        let cookie = try #require(await operatorBrowser.cookies[DashboardGate.cookieName])
        #expect(!cookie.contains(Self.token) && cookie.count == 64)
        #expect(first.headers["Set-Cookie"]?.contains("HttpOnly") == true)
        let page = try await operatorBrowser.get(NapkinDashboard.path)
        #expect(page.status == 200 && page.text.contains("Sessions used last"))
        let stream = try await operatorBrowser.events()
        #expect(stream.status == 200)
        stream.close()
        await dashboard.shutdown()
        await testApp.stop()
    }

    @Test("a program opens it with the bearer header")
    func bearer() async throws {
        let (testApp, dashboard, router) = try await start()
        let response = try await router.respond(to: Request(
            method: .get, target: NapkinDashboard.path, headers: ["Authorization": "bearer \(Self.token)", "Accept": "text/html"]))
        #expect(response.status == .ok)
        await dashboard.shutdown()
        await testApp.stop()
    }
}
