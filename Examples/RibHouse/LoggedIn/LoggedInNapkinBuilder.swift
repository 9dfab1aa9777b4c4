import NapkinWeb

/// What LoggedIn needs: the shared pit line, specials board and diners it
/// shows, the presence it tracks its guest in, the announcements its guest
/// may make, and what its child needs.
protocol LoggedInNapkinDependency: PitBoardNapkinDependency {
    var sharedAnnouncements: SharedEvents<Announcement> { get }
    var photos: UploadStore { get }
    @MainActor var pitLine: SharedFragment<PitState> { get }
    @MainActor var specialsBoard: SharedFragment<[Special]> { get }
    @MainActor var inTheHouse: SharedFragment<[String: Diner]> { get }
    var diners: Presence<Diner> { get }
}

/// Builds the signed-in screen for one `user`. A new login builds a new
/// napkin, so nothing of the previous guest survives.
final class LoggedInNapkinBuilder: Builder<any LoggedInNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build(listener: any LoggedInNapkinListener, user: User) -> LoggedInNapkinRouter {
        let presenter = LoggedInNapkinPresenter(user: user)
        let interactor = LoggedInNapkinInteractor(presenter: presenter, listener: listener, user: user, diners: dependency.diners,
            announcing: Announcing(announcements: dependency.sharedAnnouncements, photos: dependency.photos))
        return LoggedInNapkinRouter(
            interactor: interactor,
            viewController: LoggedInNapkinViewController(
                presenter: presenter, pitLine: dependency.pitLine, specialsBoard: dependency.specialsBoard,
                inTheHouse: dependency.inTheHouse, listener: interactor),
            dependency: dependency)
    }
}
