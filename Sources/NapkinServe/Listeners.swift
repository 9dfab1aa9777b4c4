import NapkinHTTP
import NapkinWeb

/// The servers a ``ServeCommand`` runs: the app's, and the operations
/// listener (`/metrics` and the dashboard) when `--metrics-port` is given.
@MainActor
struct Listeners {
    let server: HTTPServer
    let operations: HTTPServer?
    let dashboard: NapkinDashboard?

    init(options: ServeOptions, setup: ServeSetup, app: some ServedApp, router: HTTPRouter) {
        var configuration = ServerConfiguration(
            host: options.host, port: options.port,
            // Behind a proxy every connection comes from the proxy's address:
            // a per-address limit would cap the whole site at one address's share.
            perIPConnectionLimit: options.trustedProxies.isEmpty ? 256 : 0,
            shutdownGracePeriod: options.drainTimeout)
        configuration.metrics = setup.metrics
        server = HTTPServer(configuration: configuration, responder: router)
        guard let metrics = setup.metrics, let port = options.metricsPort else {
            operations = nil
            dashboard = nil
            return
        }
        // The dashboard lists the cluster's processes, found on the bus.
        let dashboard = NapkinDashboard(observing: app.app, bus: setup.bus, metrics: metrics)
        var router = HTTPRouter()
        MetricsEndpoint(registry: metrics, token: options.metricsToken).mount(on: &router)
        dashboard.mount(on: &router, token: options.metricsToken)
        operations = MetricsEndpoint.listener(host: options.metricsHost, port: port, serving: router)
        self.dashboard = dashboard
    }

    func start() throws {
        try server.start()
        try operations?.start()
    }

    /// Stops the operations listener and the dashboard, once the app's
    /// server has stopped.
    func shutdown() async {
        await operations?.shutdown()
        await dashboard?.shutdown()
    }
}
