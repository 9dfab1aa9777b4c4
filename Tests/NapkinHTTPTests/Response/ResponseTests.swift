import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct ResponseTests {
    struct Item: Codable, Equatable { var id: Int; var name: String }

    @Test func helpersSetTypes() throws {
        #expect(Response.text("x").headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(Response.html("<p>").headers["Content-Type"] == "text/html; charset=utf-8")
        let json = try Response.json(Item(id: 1, name: "a"), status: .created)
        #expect(json.status == .created)
        #expect(json.headers["Content-Type"] == "application/json; charset=utf-8")
        let redirect = Response.redirect(to: "/next")
        #expect(redirect.status.code == 303)
        #expect(redirect.headers["Location"] == "/next")
    }

    @Test func streamedBodyArrivesChunked() async throws {
        var router = HTTPRouter()
        router.get("/stream") { _ in
            let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            Task {
                for i in 0..<3 { continuation.yield(Array("part\(i);".utf8)) }
                continuation.finish()
            }
            return Response(headers: ["Content-Type": "text/plain"], body: .stream(stream))
        }
        try await withServer(router) { server in
            let reply = try await fetch(server.port, "/stream")
            #expect(reply.status == 200)
            #expect(reply.header("Transfer-Encoding")?.lowercased() == "chunked")
            #expect(reply.text == "part0;part1;part2;")
        }
    }
}
