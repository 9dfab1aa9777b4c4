import NapkinWeb
import napkin

protocol SpecialsNapkinDependency: Dependency {
    var specialsService: SpecialsService { get }
}

/// Builds the specials board. It has nothing to tell its parent, so it
/// takes no listener.
final class SpecialsNapkinBuilder: Builder<any SpecialsNapkinDependency> {
    func build() -> ViewableRouter<SpecialsNapkinInteractor, SpecialsNapkinViewController> {
        let presenter = SpecialsNapkinPresenter()
        let interactor = SpecialsNapkinInteractor(presenter: presenter, specialsService: dependency.specialsService)
        return ViewableRouter(interactor: interactor, viewController: SpecialsNapkinViewController(presenter: presenter))
    }
}
