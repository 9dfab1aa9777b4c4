// Article:begin "GettingStarted.md", Swift block 5 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinTesting // wrapper
import Testing // wrapper

@Suite("Smokehouse", .timeLimit(.minutes(1)))
@MainActor
struct SmokehouseTests {
    @Test("the home page shows the counter, and Increment counts")
    func increment() async throws {
        let client = TestClient(inProcess: Smokehouse().router)
        let page = try await client.get("/")
        #expect(page.text.contains("<h1>Smokehouse</h1>"))
        #expect(page.text.contains("Count: 0"))

        // Like a browser without JavaScript: POST, 303, GET.
        let after = try await client.submit(page, button: "Increment")
        #expect(after.text.contains("Count: 1"))
    }

    @Test("with napkin's client, the open page is patched")
    func patch() async throws {
        let client = TestClient(inProcess: Smokehouse().router)
        let page = try await client.get("/")
        let stream = try await client.events()
        // A new stream starts with the whole page.
        _ = try await stream.nextPatch()

        let posted = try await client.submit(page, button: "Increment", javascript: true)
        #expect(posted.status == 204)
        #expect(try await stream.nextPatch().html.contains("Count: 1"))
        stream.close()
    }
}
// Article:end
