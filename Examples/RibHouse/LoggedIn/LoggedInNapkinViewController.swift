import NapkinWeb

/// The signed-in screen's state: the guest.
@MainActor @Observable
final class LoggedInNapkinPresenter: Presentable, StatePresenting {
    let user: User

    init(user: User) { self.user = user }

    var state: some Encodable { ["user": user] }
}

/// The charcoal night: masthead with the name and the live pit line, tabs,
/// the numbered foods, the specials, who is in the house, the Pit Board
/// when open, the announcement form (checked as the guest types), and Logout. The pit line, the specials and the diners are the
/// app's shared fragments: a pit tick renders the line once for every
/// signed-in tab, and sends each that line only.
final class LoggedInNapkinViewController: WebViewController {
    let presenter: LoggedInNapkinPresenter
    private let pitLine: SharedFragment<PitState>
    private let specialsBoard: SharedFragment<[Special]>
    private let inTheHouse: SharedFragment<[String: Diner]>

    override var pageTitle: String? { "Menu · Rib House" }

    init(
        presenter: LoggedInNapkinPresenter, pitLine: SharedFragment<PitState>, specialsBoard: SharedFragment<[Special]>,
        inTheHouse: SharedFragment<[String: Diner]>, listener: LoggedInNapkinInteractor
    ) {
        self.presenter = presenter
        self.pitLine = pitLine
        self.specialsBoard = specialsBoard
        self.inTheHouse = inTheHouse
        super.init()
        action("logout") { try await listener.didTapLogout() }
        action(.announce) { form in try await listener.didAnnounce(form.text, photo: form.photo) }
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
            \(shared(pitLine))\
            <nav class="tabs" aria-label="Sections">\(tabs)</nav></header>\
            <section class="menu" aria-labelledby="rh-foods"><h2 id="rh-foods">Barbecue foods</h2>\
            <ol class="foods">\(foods)</ol></section>\
            \(shared(specialsBoard))\(shared(inTheHouse))\(slot("pitboard"))\
            <section class="announce" aria-labelledby="rh-announce"><h2 id="rh-announce">Tell the house</h2>\
            \(form(.announce, class: "announce", multipart: true, content: """
                \(field("text", label: "Announcement", of: .announce, id: "rh-announce-text", attributes: "autocomplete=\"off\""))\
                \(field("photo", .file, label: "Photo (JPEG or PNG, up to 2 MiB)", of: .announce, id: "rh-announce-photo",
                    attributes: "accept=\"image/jpeg,image/png\""))\
                \(submitButton("Announce", working: "Announcing…", class: "ink"))
                """))</section>\
            \(form("logout", class: "logout", returnTo: Page.menu.path, content: "<button type=\"submit\" class=\"ghost\">Logout</button>"))\
            </main>
            """
    }
}
