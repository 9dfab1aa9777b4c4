import napkin

protocol AnnouncementsNapkinDependency: Dependency {
    var announcements: EventBroadcaster<Announcement> { get }
}

/// Builds the headless napkin that listens for the pit boss: no view, so
/// its router is napkin's own `Router`.
final class AnnouncementsNapkinBuilder: Builder<any AnnouncementsNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build(listener: any AnnouncementsNapkinListener) -> Router<AnnouncementsNapkinInteractor> {
        Router(interactor: AnnouncementsNapkinInteractor(announcements: dependency.announcements, listener: listener))
    }
}
