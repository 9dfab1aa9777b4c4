import NapkinWeb
import napkin

/// Today's specials, as the interactor last heard them.
@MainActor @Observable
final class SpecialsNapkinPresenter: Presentable, StatePresenting {
    private(set) var specials: [Special] = []

    func present(specials: [Special]) { self.specials = specials }

    var state: some Encodable { ["specials": specials] }
}

/// Today's specials, dish and price joined by a dotted leader.
final class SpecialsNapkinViewController: WebViewController {
    let presenter: SpecialsNapkinPresenter

    init(presenter: SpecialsNapkinPresenter) { self.presenter = presenter }

    override func body() -> HTML {
        let dishes = presenter.specials.map { special -> HTML in
            "<li><span class=\"dish\">\(special.dish)</span><span class=\"price\">\(special.price)</span></li>"
        }
        return """
            <section class="specials" aria-labelledby="rh-specials">\
            <h2 id="rh-specials">Today’s specials</h2><ul>\(dishes)</ul>\
            </section>
            """
    }
}
