import NapkinWeb
import napkin

/// The board's state: the pit as last chalked up.
@MainActor @Observable
final class PitBoardNapkinPresenter: Presentable, StatePresenting {
    private(set) var pit: PitState?

    func present(pit: PitState) { self.pit = pit }

    var state: some Encodable { ["pit": pit] }
}

/// The chalkboard: a table of smokers and when it was last chalked up.
final class PitBoardNapkinViewController: WebViewController {
    let presenter: PitBoardNapkinPresenter

    init(presenter: PitBoardNapkinPresenter) { self.presenter = presenter }

    override var pageTitle: String? { "Pit Board · Rib House" }

    override func body() -> HTML {
        let rows = (presenter.pit?.smokers ?? []).map { smoker -> HTML in
            """
            <tr class="\(smoker.isReady ? "ready" : "cooking")"><td>\(smoker.name)</td><td class="temp">\(smoker.temperature)°F</td>\
            <td>\(smoker.item)</td><td class="status">\(smoker.statusText)</td></tr>
            """
        }
        return """
            <section class="pitboard" aria-labelledby="rh-pitboard"><h2 id="rh-pitboard">The Pit Board</h2>\
            <table class="smokers"><thead><tr><th scope="col">Smoker</th><th scope="col">Temp</th>\
            <th scope="col">On the grate</th><th scope="col">Status</th></tr></thead><tbody>\(rows)</tbody></table>\
            <p class="updated">\(presenter.pit?.chalkedUp ?? "Waiting for the pit…")</p></section>
            """
    }
}
