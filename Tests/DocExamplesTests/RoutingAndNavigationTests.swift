import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
import napkin

/// The home page of Routing and navigation
/// (`ArticleExamples/RoutingAndNavigation.swift`) does what the article
/// says: `/board` attaches the board, `/` detaches it, and a path nobody
/// claims is a 404.
@Suite("Routing and navigation: the home page and its board", .timeLimit(.minutes(1)))
@MainActor
struct RoutingAndNavigationTests {
    final class AppComponent: Component<any EmptyDependency>, RoutingExample.HomeDependency, @unchecked Sendable {
        var pitService: RoutingExample.PitService { shared { RoutingExample.PitService() } }
    }

    @Test("the URL attaches and detaches the board, and navigating twice changes nothing")
    func board() async throws {
        // A tab the test reads without a stream stays past napkin's 3 s grace,
        // however slowly a loaded machine runs the test.
        let app = NapkinApp(component: AppComponent(), configuration: NapkinConfiguration(tabGracePeriod: .seconds(60))) { component in
            RoutingExample.HomeBuilder(dependency: component).build()
        }
        var router = HTTPRouter()
        app.mount(on: &router)
        let client = TestClient(inProcess: router)

        let home = try await client.get("/")
        #expect(home.status == 200)
        #expect(home.text.contains("<h1>Home</h1>") && !home.text.contains("The board"))

        let board = try await client.navigate(to: "/board")
        #expect(board.status == 200)
        #expect(board.text.contains("<h2>The board</h2>"))
        let again = try await client.navigate(to: "/board")
        #expect(again.text.components(separatedBy: "The board").count == 2, "one board, not two")
        #expect(try await client.tree(at: "/board").napkinNames.count == 2)

        #expect(try await client.navigate(to: "/board/more").status == 404)
        #expect(try await client.navigate(to: "/menu").status == 404)

        let back = try await client.navigate(to: "/")
        #expect(back.status == 200)
        #expect(!back.text.contains("The board"))
        #expect(try await client.tree(at: "/").napkinNames.count == 1)
        await app.shutdown()
    }
}
