import napkin

protocol AnnouncementsNapkinDependency: Dependency {
    var announcements: EventBroadcaster<Announcement> { get }
}

protocol AnnouncementsNapkinBuildable: Buildable {
    @MainActor func build(withListener listener: any AnnouncementsNapkinListener) async -> any Routing
}

/// Builds the headless napkin that listens for the pit boss.
final class AnnouncementsNapkinBuilder: Builder<any AnnouncementsNapkinDependency>, AnnouncementsNapkinBuildable, @unchecked Sendable {
    // Safe to share: `Builder` holds only the immutable dependency.

    @MainActor
    func build(withListener listener: any AnnouncementsNapkinListener) async -> any Routing {
        let interactor = AnnouncementsNapkinInteractor(announcements: dependency.announcements)
        await interactor.wire(listener: listener)
        return AnnouncementsNapkinRouter(interactor: interactor)
    }
}
