import Foundation
import NapkinHTTP
import Testing
@testable import RibHouse

/// Rib House end to end, in-process: no socket, the app's real router.
@MainActor
@Suite struct RibHouseFlowTests {
    let ribHouse = RibHouseApp.make(accessLog: false)

    @Test func loginShowsGreetingFoodsAndPitBoardThenLogout() async throws {
        var guest = GuestClient(ribHouse)
        try await guest.get("/")
        #expect(guest.page.contains("class=\"rh-out\""))

        let posted = try await guest.submit("login", ["name": "  Ada  "])
        #expect(posted.status == .seeOther)
        #expect(posted.headers["Location"] == "/")

        try await guest.get("/")
        #expect(guest.page.contains("<span class=\"name\">Ada</span>"))
        #expect(guest.page.contains("<li>Brisket</li><li>Pulled Pork</li><li>St. Louis Ribs</li><li>Burnt Ends</li><li>Smoked Sausage</li>"))
        #expect(guest.page.contains("class=\"pit-header\""))
        #expect(!guest.page.contains("class=\"pitboard\""))

        try await guest.get("/pit")
        #expect(guest.page.contains("class=\"pitboard\""))
        try await guest.get("/pit", json: true)
        #expect(guest.page.contains("\"PitBoardNapkin\""))

        try await guest.get("/", json: true)
        #expect(!guest.page.contains("\"PitBoardNapkin\""), "the Pit Board stays attached away from /pit")

        try await guest.get("/")
        let out = try await guest.submit("logout")
        #expect(out.headers["Location"] == "/")
        try await guest.get("/")
        #expect(guest.page.contains("class=\"rh-out\""))
        #expect(!guest.page.contains("Ada"))
    }

    @Test(arguments: ["", "   ", String(repeating: "x", count: 41)])
    func badNameShowsErrorAndStaysSignedOut(name: String) async throws {
        var guest = GuestClient(ribHouse)
        try await guest.get("/")
        _ = try await guest.submit("login", ["name": name])
        try await guest.get("/")
        #expect(guest.page.contains("class=\"error\""))
        #expect(!guest.page.contains("rh-in"))
    }

    @Test func signingInAtPitLandsOnThePitBoard() async throws {
        var guest = GuestClient(ribHouse)
        try await guest.get("/pit")
        #expect(guest.page.contains("class=\"rh-out\""), "signed out, /pit shows the login")
        let posted = try await guest.submit("login", ["name": "Joe"])
        #expect(posted.headers["Location"] == "/pit")
        try await guest.get("/pit")
        #expect(guest.page.contains("class=\"pitboard\""))
    }

    @Test func sessionsStaySeparate() async throws {
        var ada = GuestClient(ribHouse)
        var bob = GuestClient(ribHouse)
        try await ada.get("/")
        try await bob.get("/")
        _ = try await ada.submit("login", ["name": "Ada"])
        try await bob.get("/")
        #expect(bob.page.contains("class=\"rh-out\""))
        try await ada.get("/")
        #expect(ada.page.contains("Ada"))
    }

    @Test func unknownPathIsTheMissingPage() async throws {
        var guest = GuestClient(ribHouse)
        let response = try await guest.get("/no-such-grill")
        #expect(response.status == .notFound)
        #expect(guest.page.contains("rh-missing"))
    }

    @Test func announcementsReachOpenSessionsOnly() async throws {
        var early = GuestClient(ribHouse)
        try await early.get("/")
        await ribHouse.announcements.deliver(try Announcement(validating: "Last call for burnt ends!"))
        try await early.get("/", json: true)
        #expect(early.page.contains("Last call for burnt ends!"))

        var late = GuestClient(ribHouse)
        try await late.get("/", json: true)
        #expect(!late.page.contains("Last call"))
    }

    @Test func specialsFollowTheService() async throws {
        var guest = GuestClient(ribHouse)
        try await guest.get("/")
        _ = try await guest.submit("login", ["name": "Ada"])
        ribHouse.specialsService.replace(with: [Special(dish: "Rib tips", price: "$8")])
        try await Task.sleep(for: .milliseconds(100))
        try await guest.get("/")
        #expect(guest.page.contains("Rib tips"))
    }
}
