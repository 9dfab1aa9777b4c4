// Article:begin "GettingStarted.md", Swift block 3 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinServe

@MainActor // wrapper
func serveSmokehouse() async { // wrapper
    // Serves until SIGINT or SIGTERM, then lets the requests in flight finish.
    await ServeCommand("Smokehouse").run(configuration: Smokehouse.configuration) { setup in
        Smokehouse(configuration: setup.configuration)
    }
} // wrapper
// Article:end
