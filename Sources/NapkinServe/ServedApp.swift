import NapkinHTTP
import NapkinWeb

/// An app as a ``ServeCommand`` serves it: its routes, its napkin side, and
/// what it starts and stops app-wide.
@MainActor
public protocol ServedApp {
    /// Every route of the app, napkin's included. The command adds the
    /// access log around it.
    var router: HTTPRouter { get }
    /// The napkin side: drained on SIGTERM, and shown by the dashboard.
    var app: NapkinApp { get }
    /// Starts what runs app-wide (services, subscriptions to the other
    /// processes), once the listener is up. Does nothing by default.
    func start() async
    /// Stops what ``start()`` started and tears every session down, once
    /// the listener has closed. By default, shuts ``app`` down.
    func shutdown() async
}

extension ServedApp {
    /// Starts nothing: an app with no app-wide work needs no `start()`.
    public func start() async {}

    /// Shuts ``app`` down, tearing every session's trees down.
    public func shutdown() async {
        await app.shutdown()
    }
}
