import NapkinWeb
import napkin

@MainActor
protocol SpecialsNapkinPresentable: Presentable {
    func present(specials: [Special])
}

@MainActor
@Observable
final class SpecialsNapkinPresenter: Presenter<SpecialsNapkinViewController>, SpecialsNapkinPresentable, StatePresenting {
    private(set) var specials: [Special] = []

    func present(specials: [Special]) {
        self.specials = specials
    }

    var state: some Encodable { ["specials": specials] }
}
