import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct MetricsEndpointTests {
    @Test("behind a token: no token, a wrong one or another scheme is 401; the token gets the text format")
    func bearerToken() async throws {
        let registry = MetricsRegistry()
        registry.counter("served_total", help: "Served.").increment()
        let endpoint = MetricsEndpoint(registry: registry, token: "s3cret-s3cret-s3cret")
        func status(_ authorization: String?) async throws -> (Int, Response) {
            var headers: HTTPHeaders = [:]
            if let authorization { headers["Authorization"] = authorization }
            let response = try await endpoint.respond(to: Request(method: .get, target: "/metrics", headers: headers))
            return (response.status.code, response)
        }
        for refused in [nil, "Bearer wrong", "Bearer s3cret-s3cret-s3cre", "Bearer s3cret-s3cret-s3cretX", "Basic s3cret-s3cret-s3cret", "Bearer "] {
            let (code, response) = try await status(refused)
            #expect(code == 401, "\(refused ?? "no header")")
            #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(!(bodyText(response).contains("served_total")))
        }
        let (code, response) = try await status("bearer s3cret-s3cret-s3cret")
        #expect(code == 200)
        #expect(response.headers["Content-Type"] == MetricsEndpoint.contentType)
        #expect(bodyText(response).contains("served_total 1\n"))
    }

    @Test("only GET and HEAD of its path: other paths 404, other methods 405")
    func onlyItsPath() async throws {
        let endpoint = MetricsEndpoint(registry: MetricsRegistry())
        #expect(try await endpoint.respond(to: Request(method: .get, target: "/metrics/x")).status.code == 404)
        #expect(try await endpoint.respond(to: Request(method: .post, target: "/metrics")).status.code == 405)
        #expect(try await endpoint.respond(to: Request(method: .get, target: "/metrics")).status.code == 200)
    }

    @Test("mounted on a router beside other routes, it answers its path, and only to the token")
    func mountedOnARouter() async throws {
        var router = HTTPRouter()
        router.get("/hello") { _ in .text("hello") }
        MetricsEndpoint(registry: MetricsRegistry(), token: "s3cret-s3cret-s3cret").mount(on: &router)
        #expect(try await router.respond(to: Request(method: .get, target: "/metrics")).status.code == 401)
        let bearing: HTTPHeaders = ["Authorization": "Bearer s3cret-s3cret-s3cret"]
        #expect(try await router.respond(to: Request(method: .get, target: "/metrics", headers: bearing)).status.code == 200)
        #expect(try await router.respond(to: Request(method: .get, target: "/hello")).status.code == 200)
    }

    @Test("its own listener serves the metrics on the loopback address, and counts its server's connections")
    func listener() async throws {
        let registry = MetricsRegistry()
        registry.gauge("answer", help: "The answer.") { 42 }
        let server = MetricsEndpoint(registry: registry).listener(port: 0)
        try server.start()
        let reply = try await fetch(server.port, "/metrics")
        await server.shutdown()
        #expect(reply.status == 200)
        #expect(reply.text.contains("# TYPE answer gauge\nanswer 42\n"))
    }
}
