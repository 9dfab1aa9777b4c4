/// The overview: how many sessions, tabs and streams the app holds, and
/// the sessions used last, each a link to its tree.
final class OverviewViewController: WebViewController {
    let presenter: ValuePresenter<OverviewReading>

    init(presenter: ValuePresenter<OverviewReading>) { self.presenter = presenter }

    override func body() -> HTML {
        let reading = presenter.value
        let rows = reading.recent.map { row -> HTML in
            """
            <tr><th scope="row"><a href="\(NapkinDashboard.path)/sessions/\(row.handle)"><code>\(row.handle)</code></a></th>\
            <td>\(row.tabs)</td><td>\(row.streams)</td><td><code>\(row.path)</code></td><td>\(row.idleSeconds) s</td></tr>
            """
        }
        let empty: HTML = rows.isEmpty ? "<p>No sessions are held now.</p>" : .empty
        let processes = reading.processes.map { process -> HTML in
            let this: HTML = process.isThis ? " (this one)" : .empty
            return "<tr><th scope=\"row\">\(process.host)\(this)</th><td>\(process.pid)</td><td>\(process.started)</td></tr>"
        }
        return """
            <h1>This process</h1>\
            <section aria-labelledby="dash-held"><h2 id="dash-held">Held now</h2>\
            <dl class="dash-figures">\
            <div><dt>Sessions</dt><dd data-figure="sessions">\(reading.sessions)</dd></div>\
            <div><dt>Tabs</dt><dd data-figure="tabs">\(reading.tabs)</dd></div>\
            <div><dt>Open streams</dt><dd data-figure="streams">\(reading.streams)</dd></div></dl></section>\
            <section aria-labelledby="dash-recent"><h2 id="dash-recent">Sessions used last</h2>\(empty)\
            <table class="dash-table"><thead><tr><th scope="col">Session</th><th scope="col">Tabs</th>\
            <th scope="col">Streams</th><th scope="col">Page</th><th scope="col">Idle</th></tr></thead>\
            <tbody>\(rows)</tbody></table></section>\
            \(Self.metrics(reading.metrics))\
            <section aria-labelledby="dash-processes"><h2 id="dash-processes">The app's processes</h2>\
            <table class="dash-table"><thead><tr><th scope="col">Host</th><th scope="col">Process id</th>\
            <th scope="col">Started</th></tr></thead><tbody>\(processes)</tbody></table></section>
            """
    }

    /// Requests by route and the operator's figures; nothing without metrics.
    private static func metrics(_ metrics: MetricsReading?) -> HTML {
        guard let metrics else { return .empty }
        let classes = ["2xx", "3xx", "4xx", "5xx"]
        let routes = metrics.routes.map { row -> HTML in
            let counts = classes.map { status -> HTML in "<td>\(row.byStatus[status] ?? 0)</td>" }
            let p99 = row.p99Milliseconds.map { "≤ \(MetricsReading.milliseconds($0 / 1000))" } ?? "—"
            return """
                <tr><th scope="row"><code>\(row.route)</code></th><td>\(row.requests)</td>\(counts)\
                <td>\(MetricsReading.milliseconds(row.meanMilliseconds / 1000))</td><td>\(p99)</td></tr>
                """
        }
        let figures = metrics.figures.map { figure -> HTML in "<div><dt>\(figure.label)</dt><dd>\(figure.value)</dd></div>" }
        let headers = classes.map { status -> HTML in "<th scope=\"col\">\(status)</th>" }
        return """
            <section aria-labelledby="dash-routes"><h2 id="dash-routes">Requests by route</h2>\
            <table class="dash-table"><thead><tr><th scope="col">Route</th><th scope="col">Requests</th>\(headers)\
            <th scope="col">Mean</th><th scope="col">99th percentile</th></tr></thead><tbody>\(routes)</tbody></table></section>\
            <section aria-labelledby="dash-counters"><h2 id="dash-counters">Since this process started</h2>\
            <dl class="dash-figures">\(figures)</dl></section>
            """
    }
}
