import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct RequestTests {
    @Test func targetIsDecoded() {
        let request = Request(method: .get, target: "/a%20b/c?x=1&y=hello+world&z=%C3%A9&x=2&flag")
        #expect(request.path == "/a b/c")
        #expect(request.rawPath == "/a%20b/c")
        #expect(request.query == ["x": "2", "y": "hello world", "z": "é", "flag": ""])
    }

    @Test func cookiesAreParsed() {
        let request = Request(method: .get, path: "/", headers: ["Cookie": "a=1; b=\"two\"; c=x=y"])
        #expect(request.cookies == ["a": "1", "b": "two", "c": "x=y"])
    }

    @Test func queryAndHeadersOverTheWire() async throws {
        var router = HTTPRouter()
        router.get("/echo/*") { request in
            .text("\(request.path)|\(request.query["q"] ?? "-")|\(request.query["n"] ?? "-")|\(request.headers["x-thing"] ?? "-")|\(request.peer?.hasPrefix("127.0.0.1:") == true)")
        }
        try await withServer(router) { server in
            let reply = try await fetch(server.port, "/echo/a%2Fb%20c?q=caf%C3%A9+ok&n=1&n=2", headers: [("X-Thing", "yes")])
            #expect(reply.status == 200)
            #expect(reply.text == "/echo/a/b c|café ok|2|yes|true")
        }
    }
}
