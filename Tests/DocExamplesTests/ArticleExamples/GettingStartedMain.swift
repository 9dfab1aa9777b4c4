// Article:begin "GettingStarted.md", Swift block 3 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinHTTP

@MainActor // wrapper
func serveSmokehouse() async throws { // wrapper
    let server = HTTPServer(configuration: ServerConfiguration(port: 8080), responder: makeRouter())
    // Serves until SIGINT or SIGTERM, then lets the requests in flight finish.
    try await server.runUntilSignalled()
} // wrapper
// Article:end
