// README:begin "NapkinHTTP" — a faithful copy: lines marked `// wrapper` are not in the README.
import NapkinHTTP

enum ReadmeNapkinHTTP { // wrapper
    struct Greeting: Codable { let name: String }

    static func makeRouter() -> HTTPRouter { // wrapper
        var router = HTTPRouter()
        router.use(AccessLog())
        router.use(ErrorMiddleware())

        // Hello, world.
        router.get("/hello") { _ in .text("Hello, world!") }

        // A JSON route: decode the body (form or JSON), answer JSON.
        router.post("/api/greetings") { request in
            let greeting = try request.decode(Greeting.self)   // 400, 415 or 413 on bad input
            return try .json(["hello": greeting.name], status: .created)
        }

        // Server-sent events from any AsyncSequence, with heartbeats.
        router.get("/ticks") { request in
            let ticks = AsyncStream<ServerSentEvent> { continuation in
                let task = Task {
                    for n in 1... {
                        continuation.yield(ServerSentEvent(event: "tick", data: "\(n)", id: "\(n)"))
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
                continuation.onTermination = { _ in task.cancel() }   // the client went away
            }
            return .eventStream(ticks, heartbeat: .seconds(15))
        }
        return router // wrapper
    } // wrapper

    static func main() async throws { // wrapper
        let router = makeRouter() // wrapper
        let server = HTTPServer(configuration: ServerConfiguration(port: 8080), responder: router)
        try await server.runUntilSignalled()
    } // wrapper
} // wrapper
// README:end
