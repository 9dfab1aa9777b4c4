import Testing
@testable import NapkinHTTP

/// Middleware with no synchronous finish.
private struct Opaque: Middleware {
    func respond(to request: Request, next: HTTPHandler) async throws -> Response { try await next(request) }
}

/// A fallback whose pages are main-actor work, and whose other answers are not.
private struct Pages: HTTPResponder {
    func respond(to request: Request) async throws -> Response { .text("fallback chain") }

    func mainActorWork(for request: Request) -> (@MainActor @Sendable () async throws -> Response)? {
        guard request.path.hasPrefix("/pages/") else { return nil }
        return { .text("page \(request.path)") }
    }
}

@Suite(.timeLimit(.minutes(1))) struct MainActorRouteTests {
    static func router(log: LogSink) -> HTTPRouter {
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.use(Stamp())
        router.use(ErrorMiddleware())
        router.onMainActor(.get, "/cart/:n") { request in .text("cart \(request.parameters["n"] ?? "?")") }
        router.onMainActor(.post, "/refused") { _ in throw HTTPError(.forbidden, "not yours") }
        router.get("/plain") { _ in .text("plain") }
        router.get("/later") { _ async in .text("later") }
        router.fallback(Pages())
        return router
    }

    @Test func answersAsMainActorWorkFinishedByEveryMiddleware() async throws {
        let log = LogSink()
        let router = Self.router(log: log)
        let work = try #require(router.mainActorWork(for: Request(method: .get, target: "/cart/7")))
        let cart = try await work()
        #expect(bodyText(cart) == "cart 7")
        #expect(cart.headers["X-Stamp"] == "1")
        // The chain gives the same answer, through the same middleware.
        let chained = try await router.respond(to: Request(method: .get, target: "/cart/8"))
        #expect(bodyText(chained) == "cart 8")
        #expect(chained.headers["X-Stamp"] == "1")
        #expect(log.all.count == 2)
        #expect(log.all[0].hasPrefix("GET /cart/7 200 6 "))
        #expect(log.all[1].hasPrefix("GET /cart/8 200 6 "))
    }

    @Test func anErrorIsMappedWhereTheChainMapsIt() async throws {
        let log = LogSink()
        let router = Self.router(log: log)
        let work = try #require(router.mainActorWork(for: Request(method: .post, target: "/refused")))
        let refused = try await work()
        let chained = try await router.respond(to: Request(method: .post, target: "/refused"))
        for response in [refused, chained] {
            #expect(response.status == .forbidden)
            #expect(bodyText(response) == "not yours")
            // Stamped outside the error mapping, as in the chain.
            #expect(response.headers["X-Stamp"] == "1")
        }
        #expect(log.all.count == 2)
        #expect(log.all.allSatisfy { $0.hasPrefix("POST /refused 403 9 ") })
    }

    @Test func anErrorNoMiddlewareMapsIsThrownAndLoggedAs500() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        struct Broken: Error {}
        router.onMainActor(.get, "/broken") { _ in throw Broken() }
        let work = try #require(router.mainActorWork(for: Request(method: .get, target: "/broken")))
        await #expect(throws: Broken.self) { try await work() }
        #expect(log.all.count == 1)
        #expect(log.all[0].hasPrefix("GET /broken 500 - "))
    }

    @Test func headKeepsTheLengthAndDropsTheBody() async throws {
        let router = Self.router(log: LogSink())
        for target in ["/cart/42", "/pages/a"] {
            let work = try #require(router.mainActorWork(for: Request(method: .head, target: target)))
            let head = try await work()
            #expect(bodyText(head) == "")
            #expect(head.headers["Content-Length"] == (target == "/cart/42" ? "7" : "13"))
            #expect(head.headers["X-Stamp"] == "1")
        }
    }

    @Test func theFallbackAnswersWithItsMainActorWorkOnlyWhereNoRouteMatches() async throws {
        let router = Self.router(log: LogSink())
        let work = try #require(router.mainActorWork(for: Request(method: .get, target: "/pages/menu")))
        #expect(bodyText(try await work()) == "page /pages/menu")
        // The fallback has none for this path: the chain answers.
        #expect(router.mainActorWork(for: Request(method: .get, target: "/other")) == nil)
        #expect(bodyText(try await router.respond(to: Request(method: .get, target: "/other"))) == "fallback chain")
    }

    @Test func whatTheChainMustAnswerGetsNoMainActorWork() async throws {
        let router = Self.router(log: LogSink())
        // A route that answers at once, an awaiting route, another method (405).
        #expect(router.mainActorWork(for: Request(method: .get, target: "/plain")) == nil)
        #expect(router.mainActorWork(for: Request(method: .get, target: "/later")) == nil)
        #expect(router.mainActorWork(for: Request(method: .delete, target: "/cart/1")) == nil)
        #expect(try await router.respond(to: Request(method: .delete, target: "/cart/1")).status == .methodNotAllowed)
        // Middleware that cannot finish synchronously: everything goes through the chain.
        var opaque = Self.router(log: LogSink())
        opaque.use(Opaque())
        #expect(opaque.mainActorWork(for: Request(method: .get, target: "/cart/1")) == nil)
        #expect(bodyText(try await opaque.respond(to: Request(method: .get, target: "/cart/1"))) == "cart 1")
    }
}
