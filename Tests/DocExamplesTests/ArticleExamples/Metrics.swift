// Article:begin "Metrics.md", Swift blocks 1 and 2 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinHTTP // wrapper
import NapkinWeb // wrapper

@MainActor // wrapper
enum MetricsExample { // wrapper
    struct RootBuilder { // wrapper
        let dependency: AppComponent // wrapper
        @MainActor func build() async -> HomeRouter { HomeRouter(component: dependency) } // wrapper
    } // wrapper

    static func serve(component: AppComponent) -> (NapkinApp, HTTPServer, HTTPServer) { // wrapper
let metrics = MetricsRegistry()
var configuration = NapkinConfiguration()
configuration.metrics = metrics
let app = NapkinApp(component: component, configuration: configuration) { component in
    await RootBuilder(dependency: component).build()
}
var router = HTTPRouter()
router.use(AccessLog(requestIDs: configuration.requestIDs))
app.mount(on: &router, publicDirectory: "Public")
var serverConfiguration = ServerConfiguration(port: 8080)
serverConfiguration.metrics = metrics
let server = HTTPServer(configuration: serverConfiguration, responder: router)
let scrapes = MetricsEndpoint(registry: metrics).listener(port: 9464)
        return (app, server, scrapes) // wrapper
    } // wrapper

    static func read(_ metrics: MetricsRegistry) async -> (Double, Double, MetricSeries?) { // wrapper
let snapshot = await metrics.snapshot()
let sessions = snapshot.value("napkin_sessions") ?? 0
let notFound = snapshot.total("napkin_http_requests_total", matching: ["status": "4xx"])
let pitLatency = snapshot.family("napkin_http_request_duration_seconds")?.series.first { $0.labels["route"] == "/api/pit" }
        return (sessions, notFound, pitLatency) // wrapper
    } // wrapper
} // wrapper
// Article:end
