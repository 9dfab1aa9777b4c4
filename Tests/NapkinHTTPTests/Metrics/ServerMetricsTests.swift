import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct ServerMetricsTests {
    static func router(_ registry: MetricsRegistry) -> HTTPRouter {
        var router = HTTPRouter()
        router.measure(in: registry)
        router.get("/hello") { _ in .text("hi") }
        router.post("/upload") { _ in .text("ok") }
        return router
    }

    @Test("a connection refused at the per-address limit is counted; open connections are sampled")
    func refusedPerAddress() async throws {
        let registry = MetricsRegistry()
        var configuration = ServerConfiguration(perIPConnectionLimit: 1)
        configuration.metrics = registry
        try await withServer(Self.router(registry), configuration: configuration) { server in
            let (served, refused, open) = try await offPool { () throws -> (Int, Bool, Double?) in
                let held = try TestConnection(port: server.port)
                let served = try held.request("GET", "/hello").status
                let open = registry.currentSnapshot().value("napkin_http_open_connections")
                let extra = try TestConnection(port: server.port, timeoutSeconds: 5)
                try? extra.sendRequest("GET", "/hello")
                let refused = try extra.hungUpWithoutReply()
                held.close()
                return (served, refused, open)
            }
            #expect(served == 200)
            #expect(refused)
            #expect(open == 1)
            let snapshot = await registry.snapshot()
            #expect(snapshot.value("napkin_http_connections_refused_total", ["reason": "per_address"]) == 1)
            #expect(snapshot.value("napkin_http_connections_refused_total", ["reason": "server_full"]) == 0)
            #expect(snapshot.value("napkin_http_requests_total", ["route": "/hello", "status": "2xx"]) == 1)
            #expect((snapshot.value("process_resident_memory_bytes") ?? 0) > 0)
        }
    }

    @Test("a handler that holds its loop's thread shows as lag of the loop's timer")
    func loopLag() async throws {
        let registry = MetricsRegistry()
        var router = HTTPRouter()
        // Synchronous work in a handler runs on the loop's thread and keeps
        // every other job of that loop (the probe's timer too) waiting.
        router.get("/hold") { _ in
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .milliseconds(600) {}
            return .text("held")
        }
        var configuration = ServerConfiguration(workerThreads: 1)
        configuration.metrics = registry
        try await withServer(router, configuration: configuration) { server in
            let lag = { () -> Double in
                guard case .histogram(let value) = registry.currentSnapshot().family("napkin_http_loop_lag_seconds")?.series.first?.value else { return -1 }
                return value.sum
            }
            #expect(lag() >= 0)
            #expect(try await fetch(server.port, "/hold").status == 200)
            // The late tick is recorded when the loop next runs it: look
            // again until it has been (bounded).
            for _ in 0..<200 where lag() < 0.1 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(lag() >= 0.1)
        }
    }

    @Test("a body past the limit is the server's own answer, counted under `server`")
    func serverAnswers() async throws {
        let registry = MetricsRegistry()
        var configuration = ServerConfiguration(maxRequestBodySize: 16)
        configuration.metrics = registry
        try await withServer(Self.router(registry), configuration: configuration) { server in
            let reply = try await fetch(server.port, "POST", "/upload", body: Array(repeating: 0x41, count: 64))
            #expect(reply.status == 413)
            let snapshot = await registry.snapshot()
            #expect(snapshot.value("napkin_http_requests_total", ["route": "server", "status": "4xx"]) == 1)
            #expect(snapshot.value("napkin_http_requests_total", ["route": "/upload", "status": "4xx"]) == 0)
        }
    }

    @Test("a connection answered 503 at the connection limit is counted")
    func refusedWhenFull() async throws {
        let registry = MetricsRegistry()
        let probe = EventStreamExitTests.Probe()
        var router = probe.router()
        router.measure(in: registry)
        router.get("/hello") { _ in .text("hi") }
        var configuration = ServerConfiguration(connectionLimit: 1)
        configuration.metrics = registry
        try await withServer(router, configuration: configuration) { server in
            let held = try await offPool { () throws -> TestConnection in
                let connection = try TestConnection(port: server.port)
                try connection.sendRequest("GET", "/events")
                #expect(try connection.readHead().status == 200)
                return connection
            }
            let refused = try await fetch(server.port, "/hello")
            held.close()
            #expect(refused.status == 503)
            let snapshot = await registry.snapshot()
            #expect(snapshot.value("napkin_http_connections_refused_total", ["reason": "server_full"]) == 1)
            #expect(snapshot.value("napkin_http_requests_total", ["route": "server", "status": "5xx"]) == 1)
        }
    }
}
