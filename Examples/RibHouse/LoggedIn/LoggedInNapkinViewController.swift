import NapkinWeb
import napkin

/// The signed-in screen's state: the guest and the pit line.
@MainActor @Observable
final class LoggedInNapkinPresenter: Presentable, StatePresenting {
    let user: User
    private(set) var pitHeadline = "Pit lighting up…"

    init(user: User) { self.user = user }

    func present(pit: PitState) {
        // Only a new line re-renders the header; a tick that changes nothing
        // it shows sends no patch.
        let headline = pit.headline
        if headline != pitHeadline { pitHeadline = headline }
    }

    struct State: Encodable {
        let user: User
        let pit: String
    }

    var state: State { State(user: user, pit: pitHeadline) }
}

/// The charcoal night: masthead with the name and the live pit line, tabs,
/// the numbered foods, the specials, the Pit Board when open, and Logout.
/// The pit line is a region of its own: a pit tick re-renders and sends
/// that line only, not the whole screen.
final class LoggedInNapkinViewController: WebViewController {
    let presenter: LoggedInNapkinPresenter

    override var pageTitle: String? { "Menu · Rib House" }

    init(presenter: LoggedInNapkinPresenter, listener: LoggedInNapkinInteractor) {
        self.presenter = presenter
        super.init()
        action("logout") { try await listener.didTapLogout() }
    }

    override func body() -> HTML {
        let current: Page = children["pitboard"] == nil ? .menu : .pitBoard
        let tabs = Page.allCases.map { page -> HTML in
            let marker: HTML = page == current ? " aria-current=\"page\"" : ""
            return "<a href=\"\(page.path)\"\(marker)>\(page.title)</a>"
        }
        let foods = presenter.user.barbecueFoods.map { food -> HTML in "<li>\(food)</li>" }
        return """
            <main class="rh-in"><header class="masthead"><p class="kicker">§ ∞ · Signed in</p>\
            <h1 class="greeting">Howdy, <span class="name">\(presenter.user.name)</span></h1>\
            \(region("pit") { [presenter] in "<p class=\"pit-header\" role=\"status\">\(presenter.pitHeadline)</p>" })\
            <nav class="tabs" aria-label="Sections">\(tabs)</nav></header>\
            <section class="menu" aria-labelledby="rh-foods"><h2 id="rh-foods">Barbecue foods</h2>\
            <ol class="foods">\(foods)</ol></section>\
            \(slot("specials"))\(slot("pitboard"))\
            \(form("logout", class: "logout", returnTo: Page.menu.path, content: "<button type=\"submit\" class=\"ghost\">Logout</button>"))\
            </main>
            """
    }
}
