// Article:begin "Deploying.md", Swift block 1 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinServe
import NapkinHTTP // wrapper
import NapkinStorage // wrapper
import NapkinWeb // wrapper
import napkin // wrapper

@MainActor // wrapper
struct Smokehouse { // wrapper
    static let configuration = NapkinConfiguration(layout: PageLayout(title: "Smokehouse")) // wrapper
    let router: HTTPRouter // wrapper
    let app: NapkinApp // wrapper
    init(configuration: NapkinConfiguration, bus: any MessageBus, leases: any LeaseStore) { // wrapper
        app = NapkinApp(component: AppComponent(), configuration: configuration) { component in // wrapper
            HomeRouter(component: component) // wrapper
        } // wrapper
        var router = HTTPRouter() // wrapper
        app.mount(on: &router) // wrapper
        self.router = router // wrapper
    } // wrapper
} // wrapper

extension Smokehouse: ServedApp {}

@MainActor // wrapper
func serveWithServeCommand() async { // wrapper
await ServeCommand("Smokehouse").run(configuration: Smokehouse.configuration) { setup in
    Smokehouse(configuration: setup.configuration, bus: setup.bus, leases: setup.leases)
}
} // wrapper
// Article:end
