import NapkinHTTP
import napkin

/// The JSON routes for curl and programs. They never create a session.
struct RibHouseAPI: Sendable {
    let pitService: PitService
    let announcements: EventBroadcaster<Announcement>
    let menu: @Sendable @MainActor () -> Menu

    struct Menu: Encodable, Sendable {
        let foods: [String]
        let specials: [Special]
    }

    struct Accepted: Encodable {
        let accepted: Bool
        let text: String
    }

    init(component: AppComponent) {
        pitService = component.pitService
        announcements = component.announcements
        let specials = component.specialsService
        menu = { Menu(foods: User.barbecueFoods, specials: specials.specials) }
    }

    func register(on router: inout NapkinHTTP.Router) {
        router.get("/api/menu") { [menu] _ in
            try .json(await menu())
        }
        router.get("/api/pit") { [pitService] _ in
            try .json(await pitService.current)
        }
        router.post("/api/announcements") { [announcements] request in
            let body = try request.decode(Announcement.self)
            let announcement: Announcement
            do {
                announcement = try Announcement(validating: body.text)
            } catch {
                throw HTTPError(.badRequest, String(describing: error))
            }
            await announcements.send(announcement)
            return try .json(Accepted(accepted: true, text: announcement.text), status: .accepted)
        }
    }
}
