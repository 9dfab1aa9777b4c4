import NapkinWeb
import napkin

/// What LoggedIn needs: the pit line for its header, and what its children need.
protocol LoggedInNapkinDependency: Dependency {
    var pitLine: SharedFragment<PitState> { get }
    var pitService: PitService { get }
    var specialsService: SpecialsService { get }
}

/// LoggedIn's scope: it passes the app's services on to its children.
final class LoggedInNapkinComponent: Component<any LoggedInNapkinDependency>, SpecialsNapkinDependency, PitBoardNapkinDependency {
    var pitService: PitService { dependency.pitService }
    var specialsService: SpecialsService { dependency.specialsService }
}

/// Builds the signed-in screen for one `user`. A new login builds a new
/// napkin, so nothing of the previous guest survives.
final class LoggedInNapkinBuilder: Builder<any LoggedInNapkinDependency> {
    func build(listener: any LoggedInNapkinListener, user: User) -> LoggedInNapkinRouter {
        let component = LoggedInNapkinComponent(dependency: dependency)
        let presenter = LoggedInNapkinPresenter(user: user)
        let interactor = LoggedInNapkinInteractor(presenter: presenter, listener: listener)
        return LoggedInNapkinRouter(
            interactor: interactor,
            viewController: LoggedInNapkinViewController(presenter: presenter, pitLine: dependency.pitLine, listener: interactor),
            specialsBuilder: SpecialsNapkinBuilder(dependency: component),
            pitBoardBuilder: PitBoardNapkinBuilder(dependency: component))
    }
}
