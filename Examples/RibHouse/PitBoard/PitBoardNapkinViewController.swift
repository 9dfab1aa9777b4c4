import NapkinWeb
import napkin

/// The chalkboard: a table of smokers and when it was last chalked up.
final class PitBoardNapkinViewController: WebViewController {
    weak var presenter: PitBoardNapkinPresenter?

    override var pageTitle: String? { "Pit Board · Rib House" }

    override func body() -> HTML {
        guard let presenter else { return .empty }
        let rows = presenter.rows.map { row -> HTML in
            """
            <tr class="\(row.isReady ? "ready" : "cooking")">\
            <td>\(row.name)</td><td class="temp">\(row.temperature)</td>\
            <td>\(row.item)</td><td class="status">\(row.status)</td></tr>
            """
        }
        return """
            <section class="pitboard" aria-labelledby="rh-pitboard">\
            <h2 id="rh-pitboard">The Pit Board</h2>\
            <table class="smokers"><thead><tr>\
            <th scope="col">Smoker</th><th scope="col">Temp</th><th scope="col">On the grate</th><th scope="col">Status</th>\
            </tr></thead><tbody>\(rows)</tbody></table>\
            <p class="updated">\(presenter.updated)</p>\
            </section>
            """
    }
}
