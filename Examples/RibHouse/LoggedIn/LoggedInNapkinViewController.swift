import NapkinWeb
import napkin

/// What the LoggedIn router may do with the screen.
@MainActor
protocol LoggedInNapkinViewControllable: ViewControllable {
    func show(specials: any ViewControllable)
    func show(pitBoard: any ViewControllable)
    func hidePitBoard()
}

/// The charcoal night: masthead with the name and the live pit line, tabs,
/// the numbered foods, the specials, the Pit Board when open, and Logout.
/// The pit line is a region of its own: a pit tick re-renders and sends
/// that line only, not the whole screen.
final class LoggedInNapkinViewController: WebViewController, LoggedInNapkinViewControllable {
    weak var presenter: LoggedInNapkinPresenter?
    weak var listener: (any LoggedInNapkinPresentableListener)?

    override var pageTitle: String? { "Menu · Rib House" }

    override init() {
        super.init()
        action("logout") { [weak self] in try await self?.listener?.didTapLogout() }
    }

    func show(specials: any ViewControllable) { show(specials, in: "specials") }
    func show(pitBoard: any ViewControllable) { show(pitBoard, in: "pitboard") }
    func hidePitBoard() { clear(slot: "pitboard") }

    override func body() -> HTML {
        guard let presenter else { return .empty }
        let current: Page = children["pitboard"] == nil ? .menu : .pitBoard
        let tabs = Page.allCases.map { page -> HTML in
            let marker: HTML = page == current ? " aria-current=\"page\"" : ""
            return "<a href=\"\(page.path)\"\(marker)>\(page.title)</a>"
        }
        let foods = presenter.user.barbecueFoods.map { food -> HTML in "<li>\(food)</li>" }
        let logout = form("logout", class: "logout", returnTo: Page.menu.path, content: """
            <button type="submit" class="ghost">Logout</button>
            """)
        return """
            <main class="rh-in">\
            <header class="masthead">\
            <p class="kicker">§ ∞ · Signed in</p>\
            <h1 class="greeting">Howdy, <span class="name">\(presenter.user.name)</span></h1>\
            \(region("pit") { "<p class=\"pit-header\" role=\"status\">\(presenter.pitHeadline)</p>" })\
            <nav class="tabs" aria-label="Sections">\(tabs)</nav>\
            </header>\
            <section class="menu" aria-labelledby="rh-foods"><h2 id="rh-foods">Barbecue foods</h2>\
            <ol class="foods">\(foods)</ol></section>\
            \(slot("specials"))\(slot("pitboard"))\
            \(logout)\
            </main>
            """
    }
}
