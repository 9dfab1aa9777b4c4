import NapkinHTTP
import NapkinStorage
import napkin

/// napkin's dashboard: a live view of one app's sessions, tabs, streams and
/// trees, built as a napkin app of its own (its pages are a napkin tree, its
/// figures reach the browser as patches).
///
/// Serve it where only operators reach, on a router of its own: a listener
/// on the loopback address, say, next to `/metrics`.
///
/// ```swift
/// let dashboard = NapkinDashboard(observing: app)
/// var operations = HTTPRouter()
/// dashboard.mount(on: &operations)
/// ```
///
/// It shows sessions by a handle made for the dashboard (a keyed digest of
/// the session's id, never the id), and each session's napkin tree with its
/// presenters' state, which is the people's data: keep it private.
@MainActor
public final class NapkinDashboard {
    /// The dashboard's page: the overview; a session's tree is under
    /// `sessions/<handle>`.
    public nonisolated static let path = "/_napkin/dashboard"
    /// The dashboard's stylesheet.
    nonisolated static let stylesheetPath = "/_napkin/dashboard.css"
    /// The name of the dashboard's own session cookie, which must differ
    /// from the observed app's: both may be on one host.
    nonisolated static let cookieName = "napkin_dashboard"

    let app: NapkinApp
    private let processes: ProcessList

    /// A dashboard of `watched`, refreshing its figures every `interval`.
    /// The dashboards of a cluster's processes find each other on `bus`
    /// (the bus the app's processes share), and each lists them all; with
    /// `metrics`, the overview shows requests by route and the figures
    /// operators look at first.
    public convenience init(
        observing watched: NapkinApp, bus: any MessageBus = LocalBus(), metrics: MetricsRegistry? = nil,
        every interval: Duration = .seconds(1)
    ) {
        self.init(observing: watched, bus: bus, metrics: metrics, every: interval) { _ in }
    }

    /// A dashboard whose own app's settings `configure` changes (a test's
    /// tab grace, which must outlast a slow run's page-to-stream gap).
    init(
        observing watched: NapkinApp, bus: any MessageBus = LocalBus(), metrics: MetricsRegistry? = nil,
        every interval: Duration = .seconds(1), configure: (inout NapkinConfiguration) -> Void
    ) {
        processes = ProcessList(bus: bus)
        let component = DashboardComponent(
            watched: watched, handles: SessionHandles(), processes: processes, metrics: metrics, interval: interval)
        var configuration = NapkinConfiguration(
            layout: PageLayout(title: "napkin dashboard", stylesheets: [Self.stylesheetPath]),
            maxSessions: 64,
            sessionCookieName: Self.cookieName)
        configuration.notFoundBody = "<main><h1>Not found</h1><p><a href=\"\(Self.path)\">Dashboard</a></p></main>"
        configure(&configuration)
        app = NapkinApp(component: component, configuration: configuration) { component in
            DashboardRootBuilder(dependency: component).build()
        }
    }

    /// Adds the dashboard's pages, its stylesheet and its napkin routes to
    /// `router`, which should serve nothing else but `/metrics`. With
    /// `token`, every request of the dashboard must carry it: once in the
    /// URL (`?token=…`, which a browser trades for a cookie), or as
    /// `Authorization: Bearer …`.
    public nonisolated func mount(on router: inout HTTPRouter, token: String? = nil) {
        router.get(Self.stylesheetPath) { _ in DashboardStyle.response }
        router.get("/") { _ in Response.redirect(to: Self.path) }
        app.mount(on: &router)
        if let token { router.use(DashboardGate(token: BearerToken(token))) }
        processes.launch()
    }

    /// Ends the dashboard's own sessions, and takes this process off the
    /// cluster's list.
    public func shutdown() async {
        await app.shutdown()
        await processes.stop()
    }
}

/// What every napkin of the dashboard may use: the observed app and the
/// handles its sessions are shown by.
struct DashboardComponent: Sendable {
    let watched: NapkinApp
    let handles: SessionHandles
    let processes: ProcessList
    let metrics: MetricsRegistry?
    /// How often the figures on a dashboard page are read again.
    let interval: Duration
}
