import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct MiddlewareTests {
    struct Secret: Error { let detail = "database password is hunter2" }

    @Test func throwingHandlerAnswers500AndLogsDetail() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.use(ErrorMiddleware(log: log.write))
        router.get("/boom") { _ in throw Secret() }
        router.get("/teapot") { _ in throw HTTPError(HTTPStatus(code: 418, reason: "I'm a teapot"), "short and stout") }
        try await withServer(router, log: log) { server in
            let boom = try await fetch(server.port, "/boom")
            #expect(boom.status == 500)
            #expect(boom.text == "Internal Server Error")
            #expect(!boom.text.contains("hunter2"))
            let teapot = try await fetch(server.port, "/teapot")
            #expect(teapot.status == 418)
            #expect(teapot.text == "short and stout")
        }
        #expect(log.all.contains { $0.contains("hunter2") && $0.contains("/boom") })
        #expect(log.all.contains { $0.hasPrefix("GET /boom 500 21 ") })
        #expect(log.all.contains { $0.hasPrefix("GET /teapot 418 15 ") })
    }

    @Test func serverMapsErrorsWithoutMiddleware() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.get("/boom") { _ in throw Secret() }
        router.get("/denied") { _ in throw HTTPError(.forbidden, "no") }
        try await withServer(router, log: log) { server in
            let boom = try await fetch(server.port, "/boom")
            #expect(boom.status == 500)
            #expect(boom.text == "Internal Server Error")
            let denied = try await fetch(server.port, "/denied")
            #expect(denied.status == 403)
            #expect(denied.text == "no")
        }
        #expect(log.all.contains { $0.contains("hunter2") })
    }

    @Test func accessLogLineShape() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.get("/hi") { _ in .text("hello") }
        _ = try await router.respond(to: Request(method: .get, target: "/hi?x=1"))
        _ = try await router.respond(to: Request(method: .get, target: "/nope"))
        let lines = log.all
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("GET /hi 200 5 "))
        #expect(lines[0].hasSuffix("µs"))
        #expect(lines[1].hasPrefix("GET /nope 404 9 "))
    }
}
