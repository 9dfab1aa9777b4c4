import Synchronization
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct RouterTests {
    static func router() -> Router {
        var router = Router()
        router.get("/users/:id") { request in .text("user \(request.parameters["id"] ?? "?")") }
        router.get("/users/:id/posts/:post") { request in .text("\(request.parameters["id"]!)/\(request.parameters["post"]!)") }
        router.post("/users") { _ in .text("created", status: .created) }
        router.get("/files/*") { request in .text("file \(request.parameters["*"] ?? "")") }
        router.delete("/users/:id") { _ in Response(status: .noContent) }
        return router
    }

    private func body(_ response: Response) -> String {
        if case .bytes(let b) = response.body { return String(decoding: b, as: UTF8.self) }
        return "<stream>"
    }

    @Test func parametersAndWildcard() async throws {
        let router = Self.router()
        #expect(body(try await router.respond(to: Request(method: .get, target: "/users/42"))) == "user 42")
        #expect(body(try await router.respond(to: Request(method: .get, target: "/users/7/posts/9"))) == "7/9")
        #expect(body(try await router.respond(to: Request(method: .get, target: "/files/a/b/c.txt"))) == "file a/b/c.txt")
        #expect(try await router.respond(to: Request(method: .post, target: "/users")).status == .created)
    }

    @Test func notFoundAndMethodNotAllowed() async throws {
        let router = Self.router()
        #expect(try await router.respond(to: Request(method: .get, target: "/nope")).status == .notFound)
        #expect(try await router.respond(to: Request(method: .get, target: "/users/1/extra")).status == .notFound)
        let response = try await router.respond(to: Request(method: .put, target: "/users/1"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD")
    }

    @Test func headIsServedByGetWithoutBody() async throws {
        let router = Self.router()
        let response = try await router.respond(to: Request(method: .head, target: "/users/42"))
        #expect(response.status == .ok)
        #expect(body(response) == "")
        #expect(response.headers["Content-Length"] == "7")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func middlewareWrapsOutermostFirstIncluding404() async throws {
        let log = LogSink()
        struct Tag: Middleware {
            let name: String
            let log: LogSink
            func respond(to request: Request, next: HTTPHandler) async throws -> Response {
                log.write(">\(name)")
                var response = try await next(request)
                log.write("<\(name)")
                response.headers.add(name: "X-Tag", value: name)
                return response
            }
        }
        var router = Self.router()
        router.use(Tag(name: "outer", log: log))
        router.use(Tag(name: "inner", log: log))
        let response = try await router.respond(to: Request(method: .get, target: "/missing"))
        #expect(response.status == .notFound)
        #expect(response.headers.values(for: "X-Tag") == ["inner", "outer"])
        #expect(log.all == [">outer", ">inner", "<inner", "<outer"])
    }

    @Test func fallbackAnswersUnmatchedPaths() async throws {
        struct Echo: HTTPResponder {
            func respond(to request: Request) async throws -> Response { .text("fallback \(request.path)") }
        }
        var router = Self.router()
        router.fallback(Echo())
        #expect(body(try await router.respond(to: Request(method: .get, target: "/x/y"))) == "fallback /x/y")
        // A path that a route matches under another method is still 405, not the fallback.
        #expect(try await router.respond(to: Request(method: .put, target: "/users/1")).status == .methodNotAllowed)
    }

    @Test func headOverTheWireKeepsContentLength() async throws {
        try await withServer(Self.router()) { server in
            try await offPool {
                let connection = try TestConnection(port: server.port)
                let head = try connection.request("HEAD", "/users/12345")
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "10")
                // The same connection is still usable: no stray body bytes were sent.
                let get = try connection.request("GET", "/users/12345")
                #expect(get.text == "user 12345")
                let missing = try connection.request("GET", "/nothing")
                #expect(missing.status == 404)
                let wrong = try connection.request("PATCH", "/users/1")
                #expect(wrong.status == 405)
                #expect(wrong.header("Allow") == "DELETE, GET, HEAD")
            }
        }
    }
}
