import Testing
@testable import NapkinHTTP

/// Delimiters are bytes: a `/`, `?`, `#` or space followed by a combining
/// mark is one Character in Swift, but still the delimiter on the wire.
@Suite("Delimiters as bytes", .timeLimit(.minutes(1)))
struct ByteDelimiterTests {
    @Test("the query starts at the `?` byte, the fragment at the `#` byte")
    func target() {
        let (raw, _, query) = Request.parseTarget("/a?\u{301}x=1")
        #expect(raw == "/a")
        #expect(query["\u{301}x"] == "1")
        #expect(Request.parseTarget("/b#\u{301}frag").raw == "/b")
    }

    @Test("the router splits path components at the `/` byte")
    func router() async throws {
        var router = HTTPRouter()
        router.get("/files/:name") { request in .text(request.parameters["name"] ?? "") }
        router.get("/files/:name/:more") { request in .text("two") }
        let response = try await router.respond(to: Request(method: .get, path: "/files/a/\u{301}b"))
        guard case .bytes(let body) = response.body else { Issue.record("expected bytes"); return }
        #expect(String(decoding: body, as: UTF8.self) == "two")
    }

    @Test("the event-stream parser drops only the space byte after the colon")
    func eventStream() {
        var parser = EventStreamParser()
        let events = parser.feed(Array("data: \u{301}x\n\n".utf8))
        #expect(events.first?.data == "\u{301}x")
    }
}
