import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Navigation and the tree", .timeLimit(.minutes(1)))
@MainActor
struct NavigationTests {
    @Test("a path attaches a child; leaving it detaches the child and cancels its bound tasks", arguments: TestApp.Mode.allCases)
    func attachThenDetach(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let counter = testApp.component.counter

        let detail = try await client.get("/detail")
        #expect(detail.text.contains("Detail sees 0"))
        #expect(try await client.tree(at: "/detail").napkinNames == ["Home", "Detail"])
        #expect(await counter.values.subscriberCount == 2)

        let home = try await client.get("/")
        #expect(!home.text.contains("Detail sees"))
        #expect(try await client.tree(at: "/").napkinNames == ["Home"])
        #expect(await counter.values.subscriberCount == 1)
        await testApp.stop()
    }

    @Test("a path nobody claims is a 404 page inside the layout", arguments: TestApp.Mode.allCases)
    func notFound(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let response = try await testApp.client().get("/no/such/page")
        #expect(response.status == 404)
        #expect(response.text.contains("<title>Test</title>"))
        #expect(response.text.contains("Not found"))
        let json = try await testApp.client().get("/nope", headers: ["Accept": "application/json"])
        #expect(json.status == 404)
        await testApp.stop()
    }

    @Test("the JSON snapshot names each napkin with its fragment, state and children")
    func jsonSnapshot() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let tree = try await client.tree(at: "/detail")
        let home = try #require(tree.napkin(named: "Home"))
        #expect(home["fragment"]?.stringValue?.hasPrefix("n-") == true)
        #expect(home["state"]?["count"] == .number(0))
        let detail = try #require(tree.napkin(named: "Detail"))
        #expect(detail["state"] == nil)
        #expect(tree["path"]?.stringValue == "/detail")
        await testApp.stop()
    }

    @Test("other methods on pages answer 405 with Allow")
    func methodNotAllowed() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let response = try await testApp.client().send(.delete, "/")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD")
        await testApp.stop()
    }
}
