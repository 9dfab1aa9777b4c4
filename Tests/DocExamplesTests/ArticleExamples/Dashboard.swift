// Article:begin "Dashboard.md", Swift block 1 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinHTTP // wrapper
import NapkinWeb // wrapper

@MainActor // wrapper
enum DashboardExample { // wrapper
    static func serve(app: NapkinApp, bus: any MessageBus, metrics: MetricsRegistry, token: String?) throws -> NapkinDashboard { // wrapper
let dashboard = NapkinDashboard(observing: app, bus: bus, metrics: metrics)
var operations = HTTPRouter()
MetricsEndpoint(registry: metrics, token: token).mount(on: &operations)
dashboard.mount(on: &operations, token: token)
try MetricsEndpoint.listener(port: 9464, serving: operations).start()
        return dashboard // wrapper
    } // wrapper
} // wrapper
// Article:end
