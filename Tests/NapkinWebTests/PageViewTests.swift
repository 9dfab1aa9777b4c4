import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// Only page views move a session's tree: a browser's favicon request, an
/// image, or a `HEAD` never changes what the session's pages show.
@Suite("Page views", .timeLimit(.minutes(1)))
@MainActor
struct PageViewTests {
    @Test("the browser's favicon request leaves the tree, and the forms' way back, where they were", arguments: TestApp.Mode.allCases)
    func faviconDoesNotNavigate(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        _ = try await client.get("/detail")
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.currentPath.description == "/detail")

        let icon = try await client.get("/favicon.ico", headers: [
            "Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", "Sec-Fetch-Dest": "image",
        ])
        #expect(icon.status == 404)
        let image = try await client.get("/", headers: ["Accept": "image/*,*/*;q=0.8", "Sec-Fetch-Dest": "image"])
        #expect(image.status == 404)
        #expect(session.currentPath.description == "/detail")

        let page = try await client.get("/detail", headers: ["Sec-Fetch-Dest": "document"])
        #expect(page.status == 200)
        #expect(page.form(withButton: "Increment")?.value(of: "_return") == "/detail")
        await testApp.stop()
    }

    @Test("HEAD answers without moving the tree", arguments: TestApp.Mode.allCases)
    func headDoesNotNavigate(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        _ = try await client.get("/")
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        let head = try await client.send(.head, "/detail")
        #expect(head.status == 200)
        #expect(session.currentPath.description == "/")
        await testApp.stop()
    }
}
