import Foundation

/// One session's tabs, each with its napkin tree: every napkin's name, the
/// slot it is shown in, whether it is active, and its presenter's state.
final class InspectorViewController: WebViewController {
    let presenter: ValuePresenter<InspectorReading>

    init(presenter: ValuePresenter<InspectorReading>) { self.presenter = presenter }

    override func body() -> HTML {
        let reading = presenter.value
        let missing: HTML =
            reading.found
            ? .empty
            : """
            <p role="status">This process holds no session by this handle now: it ended, left memory, \
            or signed in anew under another handle.</p>
            """
        let tabs = reading.tabs.map { tab -> HTML in
            let id = "dash-tab-\(tab.number)"
            return """
                <section aria-labelledby="\(id)"><h2 id="\(id)">Tab \(tab.number): <code>\(tab.path)</code>, \
                \(tab.streams) stream\(tab.streams == 1 ? "" : "s")</h2>\
                \(tab.tree.map { Self.tree([$0]) } ?? "<p>Not launched yet.</p>")</section>
                """
        }
        return """
            <h1>Session <code>\(reading.handle)</code></h1>\
            <p><a href="\(NapkinDashboard.path)">Back to the overview</a></p>\(missing)\(tabs)
            """
    }

    /// The napkins as nested lists, children under their parent.
    private static func tree(_ napkins: [TreeSnapshot]) -> HTML {
        guard !napkins.isEmpty else { return .empty }
        let items = napkins.map { napkin -> HTML in
            let slot: HTML = napkin.slot.map { "<span class=\"dash-slot\">in slot <code>\($0)</code></span>" } ?? .empty
            let active: HTML =
                napkin.active
                ? "<span class=\"dash-active\">active</span>" : "<span class=\"dash-inactive\">inactive</span>"
            let state: HTML = napkin.state.map { "<details><summary>State</summary><pre>\(json($0))</pre></details>" } ?? .empty
            return "<li><span class=\"dash-name\">\(napkin.name)</span> \(slot) \(active)\(state)\(tree(napkin.children))</li>"
        }
        return "<ul class=\"dash-tree\">\(items)</ul>"
    }

    private static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
