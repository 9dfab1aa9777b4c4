import Foundation
import NapkinWeb

/// The JSON routes for curl and programs. They never create a session.
struct RibHouseAPI: Sendable {
    let pitService: PitService
    let announcements: SharedEvents<Announcement>
    let menu: @Sendable @MainActor () -> Menu
    let photos: UploadStore
    let recent: RecentAnnouncements
    /// Anyone may announce, without signing in: ten at once per client
    /// address, then one a second.
    let announcing = RateLimiter(burst: 10, interval: .seconds(1))
    let clientAddress: @Sendable (Request) -> String?

    struct Menu: Encodable, Sendable {
        let foods: [String]
        let specials: [Special]
    }

    /// One announcement as `GET /api/announcements` lists it.
    struct Listed: Encodable {
        let text: String
        /// Where its photo is served, or null.
        let photo: String?
    }

    struct Accepted: Encodable {
        let accepted: Bool
        let text: String
    }

    /// A posted announcement's body, before its rules are checked (so a
    /// broken one is answered with the rule, not a JSON error).
    struct Posted: Decodable {
        let text: String
    }

    @MainActor
    init(component: AppComponent, configuration: NapkinConfiguration) {
        clientAddress = { configuration.clientAddress(of: $0) }
        pitService = component.pitService
        announcements = component.sharedAnnouncements
        photos = component.photos
        recent = component.recentAnnouncements
        let specials = component.specialsService
        menu = { Menu(foods: User.barbecueFoods, specials: specials.specials) }
    }

    func register(on router: inout HTTPRouter) {
        router.get("/api/menu") { [menu] _ in
            try .json(await menu())
        }
        // Encoded once per tick, not per request; with nothing to await it
        // is answered at once, on the server's own thread.
        let pit: ImmediateHandler = { [json = pitService.json] _ in json.response }
        router.get("/api/pit", pit)
        router.get("/api/announcements") { [recent] _ in
            try .json(recent.all.map { Listed(text: $0.text, photo: $0.photoURL) })
        }
        photos.serve(at: "/photos", on: &router)
        router.post("/api/announcements") { [announcements, announcing, clientAddress] request in
            if let wait = announcing.admit(clientAddress(request)) { return .tooManyRequests(retryAfter: wait) }
            // JSON only, so that no other website can post one from a visitor's browser.
            let body = try request.decodeJSON(Posted.self)
            let announcement: Announcement
            do throws(Announcement.Invalid) {
                announcement = try Announcement(validating: body.text)
            } catch {
                // Typed: `error` can only be the rule that was broken, in a
                // sentence, never some other error's Swift description.
                throw HTTPError(.badRequest, error.description)
            }
            do {
                try await announcements.send(announcement)
            } catch {
                // This process's tabs have it; the others could not be told.
                throw HTTPError(.serviceUnavailable, "The announcement reached this server only. Try again in a moment.")
            }
            return try .json(Accepted(accepted: true, text: announcement.text), status: .accepted)
        }
    }
}
