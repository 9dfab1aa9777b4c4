/// The overview: how many sessions, tabs and streams the app holds, and
/// the sessions used last, each a link to its tree.
final class OverviewViewController: WebViewController {
    let presenter: ReadingPresenter<OverviewReading>

    init(presenter: ReadingPresenter<OverviewReading>) { self.presenter = presenter }

    override func body() -> HTML {
        let reading = presenter.reading
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
            <section aria-labelledby="dash-processes"><h2 id="dash-processes">The app's processes</h2>\
            <table class="dash-table"><thead><tr><th scope="col">Host</th><th scope="col">Process id</th>\
            <th scope="col">Started</th></tr></thead><tbody>\(processes)</tbody></table></section>
            """
    }
}
