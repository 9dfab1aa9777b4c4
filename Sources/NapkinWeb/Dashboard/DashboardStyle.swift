import NapkinHTTP

/// The dashboard's stylesheet, served from the module (the strict content
/// security policy allows no inline style).
enum DashboardStyle {
    static let css = """
        body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fafafa; }
        .dash-banner { background: #1b1b1b; padding: .6rem 1.2rem; }
        .dash-banner a { color: #fff; font-weight: 600; text-decoration: none; }
        .dash-main { padding: 1rem 1.2rem; max-width: 64rem; }
        h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.5rem; }
        .dash-figures { display: flex; gap: 1rem; flex-wrap: wrap; margin: 0; }
        .dash-figures div { background: #fff; border: 1px solid #d0d0d0; border-radius: 6px; padding: .5rem 1rem; }
        .dash-figures dt { font-size: .85rem; color: #4a4a4a; } .dash-figures dd { margin: 0; font-size: 1.5rem; }
        .dash-table { border-collapse: collapse; background: #fff; }
        .dash-table th, .dash-table td { border: 1px solid #d0d0d0; padding: .3rem .6rem; text-align: left; }
        .dash-table td { font-variant-numeric: tabular-nums; }
        .dash-tree { list-style: none; padding-left: 1.2rem; border-left: 2px solid #d0d0d0; }
        .dash-name { font-weight: 600; } .dash-slot { color: #4a4a4a; }
        .dash-active { color: #0b6b2b; } .dash-inactive { color: #9b1c1c; }
        pre { background: #fff; border: 1px solid #d0d0d0; padding: .5rem; overflow-x: auto; }
        a { color: #0b4f9c; }
        """

    private static let bytes = Array(css.utf8)

    /// The stylesheet as a response, cacheable for a while.
    static var response: Response {
        Response(
            status: .ok, headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "max-age=300"],
            body: .bytes(bytes))
    }
}
