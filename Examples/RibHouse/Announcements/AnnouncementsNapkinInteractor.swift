import napkin

/// How Announcements talks up to its parent, which decides how to show one.
protocol AnnouncementsNapkinListener: AnyObject, Sendable {
    func announcementsDidReceive(_ announcement: Announcement) async
}

/// Headless: no view, only a subscription. The app-wide `EventBroadcaster`
/// does not replay, so a session only hears what is said while it is open.
final actor AnnouncementsNapkinInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    private let announcements: EventBroadcaster<Announcement>
    private weak var listener: (any AnnouncementsNapkinListener)?

    init(announcements: EventBroadcaster<Announcement>) {
        self.announcements = announcements
    }

    func wire(listener: any AnnouncementsNapkinListener) {
        self.listener = listener
    }

    func didBecomeActive() async {
        // Subscribe before returning, so nothing said after the napkin is
        // attached is missed; the bound task only reads.
        let heard = await announcements.subscribe()
        task {
            for await announcement in heard {
                await self.listener?.announcementsDidReceive(announcement)
            }
        }
    }
}
