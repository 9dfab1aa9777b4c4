import napkin

/// The root of dependency injection: what the whole app shares.
///
/// One instance serves every session, so the services here fan out to every
/// browser: the pit, the announcements, the specials board. Per-session
/// state (who is signed in) lives in ``SessionComponent``.
final class AppComponent: Component<any EmptyDependency>, SessionDependency, @unchecked Sendable {
    // Safe to share: the stored properties are immutable and `Sendable`;
    // `shared` is guarded by the component's lock.

    let specialsService: SpecialsService
    private let pitInterval: Duration

    /// `specialsService` is main-actor state, so it is made by the caller
    /// (on the main actor) and handed in.
    init(specialsService: SpecialsService, pitInterval: Duration = .seconds(2)) {
        self.specialsService = specialsService
        self.pitInterval = pitInterval
        super.init(dependency: EmptyComponent())
    }

    var pitService: PitService {
        shared { PitService(interval: pitInterval) }
    }

    var announcements: EventBroadcaster<Announcement> {
        shared { EventBroadcaster() }
    }
}
