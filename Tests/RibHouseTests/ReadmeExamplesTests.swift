import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
import napkin

/// The README's Swift examples: the copies in `ReadmeExamples/` match the
/// README, compile (they are part of this target), and do what the README says.
@Suite("README Swift examples", .timeLimit(.minutes(1)))
@MainActor
struct ReadmeExamplesTests {
    /// A host for the two-napkin tree of "The rings".
    final class Host: LaunchHost {
        var root: (any ViewControllable)?
        func setRootViewControllable(_ viewControllable: any ViewControllable) { root = viewControllable }
    }

    @Test("the copies match the README's Swift blocks, line for line",
          arguments: [("The rings", "ReadmeRings.swift"), ("NapkinHTTP", "ReadmeNapkinHTTP.swift"), ("Forms and live updates", "ReadmeWebModel.swift"),
                      ("Cluster", "ReadmeDeploying.swift")])
    func copiesMatchTheReadme(section: String, file: String) throws {
        let readme = try String(contentsOf: ReadmeCurlTests.readme, encoding: .utf8)
        let start = try #require(readme.range(of: "\n### \(section)\n"))
        let block = try #require(readme.range(of: "```swift\n", range: start.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: block.upperBound..<readme.endIndex))
        let copyURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ReadmeExamples").appendingPathComponent(file)
        let copy = try String(contentsOf: copyURL, encoding: .utf8)
        #expect(Self.lines(readme[block.upperBound..<end.lowerBound]) == Self.lines(copy, droppingWrapper: true))
    }

    /// Non-empty lines, trimmed; the copy's markers and wrapper lines dropped.
    nonisolated static func lines(_ text: some StringProtocol, droppingWrapper: Bool = false) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && !(droppingWrapper && (line.hasSuffix("// wrapper") || line.hasPrefix("// README:")))
        }
    }

    @Test("The rings: one `set` reaches both gauges of the launched tree")
    func ringsTree() async throws {
        let component = ReadmeRings.AppComponent()
        let root = ReadmeRings.RootRouter(component: component)
        let host = Host()
        await root.launch(from: host)
        #expect(host.root === root.viewController)
        let child = try #require(root.children.first as? ViewableRouter<ReadmeRings.GaugeInteractor, ReadmeRings.GaugeView>)
        #expect(root.children.count == 1)
        let gauges = [root.interactor.presenter, child.interactor.presenter]

        // `shared` makes one thermometer; its `send` settles once both gauges have it.
        #expect(component.thermometer === component.thermometer)
        let (_, report) = await Settlement.run(timeout: .seconds(10)) { await component.thermometer.set(250) }
        #expect(report.settled)
        #expect(gauges.map(\.degrees) == [250, 250])

        await root.terminate()
        #expect(await component.thermometer.readings.subscriberCount == 0, "terminating ends both gauges' tasks")
    }

    @Test("NapkinHTTP: hello, a JSON route with its errors, and ticks", arguments: RibHouseHarness.Mode.allCases)
    func napkinHTTPRouter(mode: RibHouseHarness.Mode) async throws {
        let router = ReadmeNapkinHTTP.makeRouter()
        var server: HTTPServer?
        if mode == .live {
            server = HTTPServer(configuration: ServerConfiguration(port: 0), responder: router)
            try server?.start()
        }
        let client = server.map { TestClient(live: $0.port) } ?? TestClient(inProcess: router)
        let hello = try await client.get("/hello")
        #expect(hello.status == 200 && hello.text == "Hello, world!")

        struct Greeting: Encodable { let name: String }
        let created = try await client.post("/api/greetings", json: Greeting(name: "Ada"))
        #expect(created.status == 201)
        #expect(try created.json([String: String].self) == ["hello": "Ada"])
        #expect(try await client.post("/api/greetings", form: [("name", "Bob")]).json([String: String].self) == ["hello": "Bob"])
        #expect(try await client.send(.post, "/api/greetings", headers: ["Content-Type": "application/json"], body: Array("{}".utf8)).status == 400)
        #expect(try await client.send(.post, "/api/greetings", headers: ["Content-Type": "text/plain"], body: Array("Ada".utf8)).status == 415)

        await server?.shutdown()
    }

    @Test("NapkinHTTP: /ticks streams server-sent events, the first at once")
    func napkinHTTPTicks() async throws {
        // The first tick comes at once; read it and hang up.
        let transport = InProcessTransport(responder: ReadmeNapkinHTTP.makeRouter())
        let ticks = try await transport.send(Request(method: .get, target: "/ticks", headers: ["Host": "napkin.test"]))
        #expect(ticks.status == .ok)
        #expect(ticks.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        guard case .channel = ticks.body else {
            Issue.record("/ticks is not a stream")
            return
        }
        var parser = EventStreamParser()
        var first: ServerSentEvent?
        for try await chunk in ticks.body.chunks() {
            first = parser.feed(chunk).first
            if first != nil { break }
        }
        #expect(first?.event == "tick" && first?.data == "1" && first?.id == "1")
    }

    @Test("Forms and live updates: +1 shows 1, and the session's other tab gets the patch", arguments: RibHouseHarness.Mode.allCases)
    func counterApp(mode: RibHouseHarness.Mode) async throws {
        let router = ReadmeWebModel.makeRouter()
        var server: HTTPServer?
        if mode == .live {
            server = HTTPServer(configuration: ServerConfiguration(port: 0), responder: router)
            try server?.start()
        }
        let client = server.map { TestClient(live: $0.port) } ?? TestClient(inProcess: router)

        // The README's "Testing" snippet, as written.
        let page = try await client.get("/")
        let stream = try await client.events()
        let otherTab = try await client.events()
        for tab in [stream, otherTab] { #expect(try await tab.nextPatch().html.contains("<h1>0</h1>")) }
        let after = try await client.submit(page, button: "+1")     // POST, 303, GET
        #expect(after.text.contains("<h1>1</h1>"))
        #expect(try await stream.nextPatch().html.contains("<h1>1</h1>"))
        #expect(try await client.tree().napkinNames == ["Counter"])

        #expect(try await otherTab.nextPatch().html.contains("<h1>1</h1>"))
        let again = try await client.submit(after, button: "+1", javascript: true)
        #expect(again.status == 204)
        #expect(try await otherTab.nextPatch().html.contains("<h1>2</h1>"))
        for tab in [stream, otherTab] { tab.close() }
        await server?.shutdown()
    }
}
