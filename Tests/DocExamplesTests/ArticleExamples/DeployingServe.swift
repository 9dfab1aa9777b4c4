// Article:begin "Deploying.md", Swift block 1 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinServe

@MainActor // wrapper
func serveDeployed() async { // wrapper
    await ServeCommand("Smokehouse").run(configuration: Smokehouse.configuration) { setup in
        Smokehouse(configuration: setup.configuration)
    }
} // wrapper
// Article:end
