import Synchronization
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct HTTPRouterTests {
    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/users/:id") { request in .text("user \(request.parameters["id"] ?? "?")") }
        router.get("/users/:id/posts/:post") { request in .text("\(request.parameters["id"]!)/\(request.parameters["post"]!)") }
        router.post("/users") { _ in .text("created", status: .created) }
        router.get("/files/*") { request in .text("file \(request.parameters["*"] ?? "")") }
        router.delete("/users/:id") { _ in Response(status: .noContent) }
        return router
    }

    @Test func parametersAndWildcard() async throws {
        let router = Self.router()
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/users/42"))) == "user 42")
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/users/7/posts/9"))) == "7/9")
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/files/a/b/c.txt"))) == "file a/b/c.txt")
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
        #expect(bodyText(response) == "")
        #expect(response.headers["Content-Length"] == "7")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func middlewareWrapsOutermostFirstIncluding404() async throws {
        let log = LogSink()
        struct Tag: Middleware {
            let name: String
            let log: LogSink
            func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
                log.write(">\(name)")
                return next(request).finished { outcome in
                    log.write("<\(name)")
                    return outcome.map { response in
                        var response = response
                        response.headers.add(name: "X-Tag", value: name)
                        return response
                    }
                }
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
            func answer(_ request: Request) -> Answer { .task { .text("fallback \(request.path)") } }
        }
        var router = Self.router()
        router.fallback(Echo())
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/x/y"))) == "fallback /x/y")
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

@Suite(.timeLimit(.minutes(1))) struct ImmediateRouteTests {
    static func router(log: LogSink) -> HTTPRouter {
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.use(ErrorMiddleware())
        router.get("/api/claimed") { _ async in .text("async first") }
        router.get("/api/claimed") { _ in .text("never reached") }
        router.get("/api/now/:n") { request in .text("now \(request.parameters["n"] ?? "?")") }
        router.post("/api/now/:n") { _ async in .text("posted") }
        router.get("/api/later") { _ async in .text("later") }
        return router
    }

    @Test func answersAtOnceFinishedByEveryMiddlewareAndLoggedOnce() async throws {
        let log = LogSink()
        let router = Self.router(log: log)
        let now = try #require(router.answer(Request(method: .get, target: "/api/now/7")).immediateResponse)
        #expect(bodyText(now) == "now 7")
        // The asynchronous entry gives the same answer, through the same finishers.
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/api/now/8"))) == "now 8")
        #expect(log.all.count == 2)
        #expect(log.all[0].hasPrefix("GET /api/now/7 200 5 "))
        #expect(log.all[1].hasPrefix("GET /api/now/8 200 5 "))
    }

    @Test func headKeepsTheLengthAndDropsTheBody() throws {
        let router = Self.router(log: LogSink())
        let head = try #require(router.answer(Request(method: .head, target: "/api/now/42")).immediateResponse)
        #expect(bodyText(head) == "")
        #expect(head.headers["Content-Length"] == "6")
    }

    @Test func whatDispatchWouldNotAnswerAtOnceIsLeftToTheChain() async throws {
        let log = LogSink()
        let router = Self.router(log: log)
        // An awaiting route registered earlier wins, as in dispatch.
        #expect(router.answer(Request(method: .get, target: "/api/claimed")).immediateResponse == nil)
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/api/claimed"))) == "async first")
        // Another method, an awaiting route, no route at all.
        #expect(router.answer(Request(method: .post, target: "/api/now/1")).immediateResponse == nil)
        #expect(router.answer(Request(method: .get, target: "/api/later")).immediateResponse == nil)
        #expect(bodyText(try await router.respond(to: Request(method: .post, target: "/api/now/1"))) == "posted")
        // Nothing was logged for the work answers until their work ran.
        #expect(log.all.count == 2)
        // No route at all is a 404 at hand, logged as it is made.
        #expect(router.answer(Request(method: .get, target: "/api/none")).immediateResponse?.status == .notFound)
        #expect(log.all.count == 3)
    }
}
