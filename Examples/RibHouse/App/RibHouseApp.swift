import Foundation
import NapkinWeb

/// The whole app, assembled without a socket: `main.swift` serves it, and
/// tests drive `router` in-process.
@MainActor
struct RibHouseApp {
    /// Every route: the JSON API, napkin's pages, events and actions, static files.
    let router: HTTPRouter
    /// The napkin side: a session scope per browser, a tree per tab.
    let app: NapkinApp
    let component: AppComponent

    var pitService: PitService { component.pitService }
    var specialsService: SpecialsService { component.specialsService }
    var announcements: EventBroadcaster<Announcement> { component.announcements }

    /// The layout every page shares.
    static let configuration = NapkinConfiguration(
        layout: PageLayout(
            title: "Rib House",
            stylesheets: ["/ribhouse.css"],
            bodyClass: "rh",
            icon: "/favicon.svg"),
        notFoundBody: """
            <main class="rh-missing">\
            <p class="kicker">§ 404 · Not on the menu</p>\
            <h1 class="hero">Nothing’s smoking here.</h1>\
            <hr class="rule">\
            <p>That page isn’t on the pit. The brisket is, though.</p>\
            <a href="/">Back to the house</a>\
            </main>
            """)

    /// Builds the app. `publicDirectory` is where the CSS and icons are
    /// (napkin serves its own script); `pitInterval` is how often the pit
    /// moves; `bus` and `leases` connect it to its
    /// other processes (none by default); announcement photos go to
    /// `photoDirectory`, which the processes must share.
    static func make(
        configuration: NapkinConfiguration = RibHouseApp.configuration,
        publicDirectory: String? = nil,
        pitInterval: Duration = .seconds(2),
        bus: any MessageBus = LocalBus(),
        leases: any LeaseStore = LocalLeases(),
        photoDirectory: String = AppComponent.defaultPhotoDirectory
    ) -> RibHouseApp {
        let component = AppComponent(
            specialsService: SpecialsService(), pitInterval: pitInterval, bus: bus, leases: leases, photoDirectory: photoDirectory)
        let app = NapkinApp(component: component, configuration: configuration) { component, values in
            SessionComponent(dependency: component, values: values)
        } root: { session in
            await LaunchNapkinBuilder(dependency: session).build()
        }
        var router = HTTPRouter()
        RibHouseAPI(component: component, configuration: configuration).register(on: &router)
        app.mount(on: &router, publicDirectory: publicDirectory)
        if let metrics = configuration.metrics { RibHouseMetrics.register(in: metrics, pit: component.pitService, diners: component.diners) }
        return RibHouseApp(router: router, app: app, component: component)
    }

    /// Starts what runs app-wide: announcements and diners from the other
    /// processes, the shared fragments, and the pit (its ticking loop runs in one
    /// process of them all).
    func start() async {
        await component.sharedAnnouncements.start()
        await component.recentAnnouncements.follow(component.announcements)
        await component.diners.start()
        await followServices()
        await pitService.start()
    }

    /// Has the shared fragments follow their services: the header's pit
    /// line follows the pit, the specials board the specials, "In the
    /// house now" the diners (at most twice a second). One
    /// subscription each for every signed-in tab of the process.
    func followServices() async {
        component.pitLine.follow(await pitService.stateStream())
        component.specialsBoard.follow(await specialsService.updates())
        component.inTheHouse.follow(await component.diners.present.subscribe(), atMostEvery: AppComponent.inTheHouseInterval)
    }

    /// `Public/` at the top of the repository: found from this source file
    /// (works for `swift run` anywhere), else from the current directory.
    static func defaultPublicDirectory() -> String? {
        // This file is Examples/RibHouse/App/RibHouseApp.swift.
        let fromSource = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Public").path
        let fromCurrent = FileManager.default.currentDirectoryPath + "/Public"
        return [fromSource, fromCurrent].first { FileManager.default.fileExists(atPath: $0 + "/ribhouse.css") }
    }

    /// Stops the pit and tears every session down.
    func shutdown() async {
        await pitService.stop()
        component.sharedAnnouncements.stop()
        component.recentAnnouncements.stop()
        await app.shutdown()
        await component.diners.stop()
    }
}
