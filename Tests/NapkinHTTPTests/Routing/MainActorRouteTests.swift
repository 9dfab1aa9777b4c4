import Testing
@testable import NapkinHTTP

/// Middleware that awaits before passing the request on: its answer is a
/// task, whatever the route's kind.
private struct AwaitsFirst: Middleware {
    func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        .task {
            await Task.yield()
            return try await next(request).response()
        }
    }
}

/// A fallback whose pages are main-actor work, and whose other answers are tasks.
private struct Pages: HTTPResponder {
    func answer(_ request: Request) -> Answer {
        guard request.path.hasPrefix("/pages/") else { return .task { .text("fallback task") } }
        return .mainActor { .text("page \(request.path)") }
    }
}

/// `answer`'s main-actor work, or nil when it is another kind.
private func mainActorWork(_ answer: Answer) -> (@MainActor @Sendable () async throws -> Response)? {
    if case .mainActor(let work) = answer { work } else { nil }
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
        let work = try #require(mainActorWork(router.answer(Request(method: .get, target: "/cart/7"))))
        #expect(log.all.isEmpty, "logged when the work ends, not when it is planned")
        let cart = try await work()
        #expect(bodyText(cart) == "cart 7")
        #expect(cart.headers["X-Stamp"] == "1")
        #expect(log.all.count == 1)
        #expect(log.all[0].hasPrefix("GET /cart/7 200 6 "))
    }

    @Test func anErrorIsMappedInsideTheWork() async throws {
        let log = LogSink()
        let router = Self.router(log: log)
        let work = try #require(mainActorWork(router.answer(Request(method: .post, target: "/refused"))))
        let refused = try await work()
        #expect(refused.status == .forbidden)
        #expect(bodyText(refused) == "not yours")
        // Stamped outside the error mapping.
        #expect(refused.headers["X-Stamp"] == "1")
        #expect(log.all.count == 1)
        #expect(log.all[0].hasPrefix("POST /refused 403 9 "))
    }

    @Test func anErrorNoMiddlewareMapsIsThrownAndLoggedAs500() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        struct Broken: Error {}
        router.onMainActor(.get, "/broken") { _ in throw Broken() }
        let work = try #require(mainActorWork(router.answer(Request(method: .get, target: "/broken"))))
        await #expect(throws: Broken.self) { try await work() }
        #expect(log.all.count == 1)
        #expect(log.all[0].hasPrefix("GET /broken 500 - "))
    }

    @Test func headKeepsTheLengthAndDropsTheBody() async throws {
        let router = Self.router(log: LogSink())
        for target in ["/cart/42", "/pages/a"] {
            let work = try #require(mainActorWork(router.answer(Request(method: .head, target: target))))
            let head = try await work()
            #expect(bodyText(head) == "")
            #expect(head.headers["Content-Length"] == (target == "/cart/42" ? "7" : "13"))
            #expect(head.headers["X-Stamp"] == "1")
        }
    }

    @Test func theFallbackDecidesTheKindWhereNoRouteMatches() async throws {
        let router = Self.router(log: LogSink())
        let work = try #require(mainActorWork(router.answer(Request(method: .get, target: "/pages/menu"))))
        #expect(bodyText(try await work()) == "page /pages/menu")
        let other = router.answer(Request(method: .get, target: "/other"))
        guard case .task = other else {
            Issue.record("the fallback's task stays a task")
            return
        }
        #expect(bodyText(try await other.response()) == "fallback task")
    }

    @Test func eachRouteKeepsTheKindItWasRegisteredWith() async throws {
        let router = Self.router(log: LogSink())
        #expect(router.answer(Request(method: .get, target: "/plain")).immediateResponse.map(bodyText) == "plain")
        guard case .task = router.answer(Request(method: .get, target: "/later")) else {
            Issue.record("an awaiting route is a task")
            return
        }
        #expect(router.answer(Request(method: .delete, target: "/cart/1")).immediateResponse?.status == .methodNotAllowed)
        // Middleware that awaits first makes a task of any kind, and still reaches the route.
        var awaiting = Self.router(log: LogSink())
        awaiting.use(AwaitsFirst())
        let answer = awaiting.answer(Request(method: .get, target: "/cart/1"))
        guard case .task = answer else {
            Issue.record("middleware that awaits answers with a task")
            return
        }
        #expect(bodyText(try await answer.response()) == "cart 1")
    }
}
