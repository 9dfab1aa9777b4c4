import napkin

protocol AnnouncementsNapkinDependency: Dependency {
    var announcements: EventBroadcaster<Announcement> { get }
}

/// Builds the headless napkin that listens for the pit boss: no view, so
/// its router is napkin's own `Router`.
final class AnnouncementsNapkinBuilder: Builder<any AnnouncementsNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor func build(listener: any AnnouncementsNapkinListener) -> Router<AnnouncementsNapkinInteractor> {
        Router(interactor: AnnouncementsNapkinInteractor(announcements: dependency.announcements, listener: listener))
    }
}

/// How Announcements talks up to its parent, which decides how to show one.
protocol AnnouncementsNapkinListener: AnyObject, Sendable {
    func announcementsDidReceive(_ announcement: Announcement) async
}

/// Headless: no view, only a subscription. The app-wide `EventBroadcaster`
/// does not replay, so a session only hears what is said while it is open.
final actor AnnouncementsNapkinInteractor: Interactable {
    private let announcements: EventBroadcaster<Announcement>
    private let listener: any AnnouncementsNapkinListener

    init(announcements: EventBroadcaster<Announcement>, listener: any AnnouncementsNapkinListener) {
        self.announcements = announcements
        self.listener = listener
    }

    func didBecomeActive() async {
        // Subscribed before returning, so nothing said after the napkin is
        // attached is missed. `observe` waits with no task: a quiet evening
        // costs each session its subscription only.
        observe(await announcements.subscribe()) { [listener] announcement in
            await listener.announcementsDidReceive(announcement)
        }
    }
}
