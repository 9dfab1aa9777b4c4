import NapkinWeb

/// The root of dependency injection: what the whole app shares.
///
/// One instance serves every session, so the services here fan out to every
/// browser: the pit, the announcements, the specials board. Per-session
/// state (who is signed in) lives in ``SessionComponent``.
final class AppComponent: Component<any EmptyDependency>, SessionDependency, @unchecked Sendable {
    // Safe to share: every stored property is immutable and Sendable.
    let specialsService: SpecialsService
    private let pitInterval: Duration
    /// How the app's processes reach each other (this process alone by default).
    private let bus: any MessageBus
    private let leases: any LeaseStore
    /// Where announcement photos are kept.
    private let photoDirectory: String

    /// `specialsService` is main-actor state, so it is made by the caller
    /// (on the main actor) and handed in.
    init(
        specialsService: SpecialsService, pitInterval: Duration = .seconds(2),
        bus: any MessageBus = LocalBus(), leases: any LeaseStore = LocalLeases(),
        photoDirectory: String = AppComponent.defaultPhotoDirectory
    ) {
        self.photoDirectory = photoDirectory
        self.specialsService = specialsService
        self.pitInterval = pitInterval
        self.bus = bus
        self.leases = leases
        super.init(dependency: EmptyComponent())
    }

    var pitService: PitService {
        shared { PitService(interval: pitInterval, bus: bus, leases: leases) }
    }

    /// The header's pit line: the same on every signed-in page, so it is
    /// rendered once per change for all of them, not once per tab. It
    /// follows the pit from ``RibHouseApp/followServices()``.
    @MainActor var pitLine: SharedFragment<PitState> {
        shared {
            SharedFragment("pit", initial: PitSimulator.opening()) { pit in
                "<p class=\"pit-header\" role=\"status\">\(pit.headline)</p>"
            }
        }
    }

    /// Today's specials board: app-wide like the pit line, so one shared
    /// fragment for every signed-in tab rather than a napkin, an
    /// observation and a subscription per tab. It follows the specials from
    /// ``RibHouseApp/followServices()``.
    @MainActor var specialsBoard: SharedFragment<[Special]> {
        shared {
            SharedFragment("specials", initial: specialsService.specials) { specials in
                let dishes = specials.map { special -> HTML in
                    "<li><span class=\"dish\">\(special.dish)</span><span class=\"price\">\(special.price)</span></li>"
                }
                return """
                    <section class="specials" aria-labelledby="rh-specials">\
                    <h2 id="rh-specials">Today’s specials</h2><ul>\(dishes)</ul>\
                    </section>
                    """
            }
        }
    }

    /// Who is in the house: every signed-in guest with a tab open, on any
    /// of the app's processes. LoggedIn tracks its guest while active.
    var diners: Presence<Diner> {
        shared { Presence(topic: "diners", bus: bus) }
    }

    /// "In the house now": the diners, for every signed-in tab, rendered
    /// once per change like the specials board. It follows ``diners`` from
    /// ``RibHouseApp/followServices()``. A full house names the first
    /// `inTheHouseShown` and counts the rest, so a change costs every tab
    /// the same few bytes however many are in.
    @MainActor var inTheHouse: SharedFragment<[String: Diner]> {
        shared {
            SharedFragment("in-house", initial: [:]) { diners in
                let names = diners.keys.sorted()
                let shown = names.prefix(Self.inTheHouseShown).map { name -> HTML in "<li>\(name)</li>" }
                let more: HTML = names.count > Self.inTheHouseShown ? "<p>and \(names.count - Self.inTheHouseShown) more</p>" : ""
                return """
                    <section class="in-house" aria-labelledby="rh-in-house">\
                    <h2 id="rh-in-house">In the house now</h2><ul>\(shown)</ul>\(more)\
                    </section>
                    """
            }
        }
    }

    /// How many diners "In the house now" names.
    static let inTheHouseShown = 12
    /// How often, at most, "In the house now" changes on every tab: a crowd
    /// signing in at once costs each tab two patches a second.
    static let inTheHouseInterval = Duration.milliseconds(500)

    /// Announcements of every process: one sent anywhere shows everywhere.
    var sharedAnnouncements: SharedEvents<Announcement> {
        shared { SharedEvents(channel: "announcements", bus: bus) }
    }

    var announcements: EventBroadcaster<Announcement> { sharedAnnouncements.broadcaster }

    /// Announcement photos: JPEG or PNG, up to 2 MiB, the newest 64, in a
    /// directory the app's processes share.
    var photos: UploadStore {
        shared { UploadStore(directory: photoDirectory, types: ["jpg": .jpeg, "png": .png], maxBytes: 2 << 20) }
    }

    /// Where photos go when the app is given no directory: one per machine,
    /// so that the processes of a local cluster share it.
    static var defaultPhotoDirectory: String { UploadLimits.defaultDirectory + "/ribhouse-photos" }

    /// The last few announcements heard, for `GET /api/announcements`.
    var recentAnnouncements: RecentAnnouncements { shared { RecentAnnouncements() } }
}
