import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// Rib House end to end through NapkinTesting: in-process (the app's real
/// router, no socket) and live (a real server on 127.0.0.1).
@Suite("Rib House flows", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseFlowTests {
    @Test("log in, open the Pit Board, see it live, leave it (its task ends), log out",
          arguments: RibHouseHarness.Mode.allCases)
    func loginPitBoardLogout(mode: RibHouseHarness.Mode) async throws {
        // The pit moves only when the test ticks it, so the board's
        // subscriber is idle when it is detached: the count below is exact.
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()

        let welcome = try await guest.get("/")
        #expect(welcome.status == 200)
        #expect(welcome.text.contains("class=\"rh-out\""))
        #expect(await harness.pitService.subscriberCount == 1, "the header's pit line follows the pit for every tab")

        let menu = try await guest.submit(welcome, button: loginButton, fields: ["name": "  Ada  "])
        #expect(menu.status == 200)
        #expect(menu.text.contains("<span class=\"name\">Ada</span>"))
        #expect(menu.text.contains(barbecueFoodsHTML))
        #expect(menu.text.contains("class=\"pit-header\""))
        #expect(!menu.text.contains("class=\"pitboard\""))
        #expect(await harness.pitService.subscriberCount == 1, "a signed-in header adds no subscriber: the line is shared")

        let board = try await guest.get("/pit")
        #expect(board.text.contains("class=\"pitboard\""))
        #expect(board.text.contains("round 0"))
        #expect(try await guest.tree(at: "/pit").napkinNames.contains("PitBoardNapkin"))
        #expect(await harness.pitService.subscriberCount == 2, "the board follows the pit itself")

        let stream = try await guest.events()
        #expect(stream.status == 200)
        _ = try await stream.nextPatch()   // the whole page
        let pit = await harness.tickPit()
        let patch = try await stream.nextPatch { @Sendable in $0.html.contains("class=\"pitboard\"") && $0.html.contains("round \(pit.round)") }
        #expect(patch.html.contains("\(pit.smokers[0].temperature)°F"))

        let back = try await guest.tree(at: "/")
        #expect(back.napkin(named: "PitBoardNapkin") == nil)
        #expect(back.napkin(named: "LoggedInNapkin") != nil)
        #expect(await harness.pitService.subscriberCount == 1, "the detached board's task ended")

        let page = try await guest.get("/")
        let out = try await guest.submit(page, button: "Logout")
        #expect(out.text.contains("class=\"rh-out\""))
        #expect(!out.text.contains("Ada"))
        #expect(try await guest.tree().napkinNames == ["LaunchNapkin", "AnnouncementsNapkin", "LoggedOutNapkin"])
        #expect(await harness.pitService.subscriberCount == 1, "only the shared line follows the pit")
        stream.close()
        await harness.stop()
    }

    @Test("the ticking pit patches the header and board of every open tab", arguments: RibHouseHarness.Mode.allCases)
    func tickingPitPatchesEveryTab(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode)
        let guest = harness.client()
        _ = try await guest.submit(try await guest.get("/pit"), button: loginButton, fields: ["name": "Joe"])
        let tabs = [try await guest.events(), try await guest.events()]
        for tab in tabs {
            let page = try await tab.nextPatch()
            let round = try #require(Self.round(in: page.html))
            let next = try await tab.nextPatch { @Sendable in Self.round(in: $0.html).map { $0 > round } ?? false }
            #expect(next.html.contains("class=\"pitboard\""))
            tab.close()
        }
        await harness.stop()
    }

    @Test("signed out, /pit shows the login, and signing in there lands on the Pit Board",
          arguments: RibHouseHarness.Mode.allCases)
    func signingInAtPit(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode)
        let guest = harness.client()
        let login = try await guest.get("/pit")
        #expect(login.text.contains("class=\"rh-out\""))
        let board = try await guest.submit(login, button: loginButton, fields: ["name": "Joe"])
        #expect(board.text.contains("class=\"pitboard\""))
        #expect(try await guest.tree(at: "/pit").napkinNames.last == "PitBoardNapkin")
        await harness.stop()
    }

    @Test("a bad name shows the error and changes nothing",
          arguments: RibHouseHarness.Mode.allCases, ["", "   ", String(repeating: "x", count: 41)])
    func badName(mode: RibHouseHarness.Mode, name: String) async throws {
        let harness = try await RibHouseHarness.start(mode)
        let guest = harness.client()
        let welcome = try await guest.get("/")
        let session = await guest.sessionID
        let refused = try await guest.submit(welcome, button: loginButton, fields: ["name": name])
        // The field helper shows the message under the field (not hidden).
        #expect(refused.text.contains("data-napkin-message=\"name\" aria-live=\"polite\">"))
        #expect(refused.text.contains("aria-invalid=\"true\""))
        #expect(refused.text.contains(name.count > 40 ? "Keep it to 40 characters" : "Tell us your name first"))
        #expect(!refused.text.contains("rh-in"))
        let tree = try await guest.tree()
        #expect(tree.napkinNames == ["LaunchNapkin", "AnnouncementsNapkin", "LoggedOutNapkin"])
        #expect(await guest.sessionID == session)
        #expect(await harness.pitService.subscriberCount == 1, "only the shared pit line")
        await harness.stop()
    }

    @Test("two sessions stay separate: names, trees and patches", arguments: RibHouseHarness.Mode.allCases)
    func sessionsStaySeparate(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let ada = harness.client()
        let bob = harness.client()
        let adaPage = try await ada.get("/")
        let bobPage = try await bob.get("/")
        let adaSession = await ada.sessionID
        let bobSession = await bob.sessionID
        #expect(adaSession != nil && adaSession != bobSession)
        let adaStream = try await ada.events()
        let bobStream = try await bob.events()
        _ = try await adaStream.nextPatch()
        _ = try await bobStream.nextPatch()

        let accepted = try await ada.submit(adaPage, button: loginButton, fields: ["name": "Ada"], javascript: true)
        #expect(accepted.status == 204)
        #expect(try await adaStream.nextPatch { @Sendable in $0.html.contains("<span class=\"name\">Ada</span>") }.html.contains(barbecueFoodsHTML))

        // Bob's own next action marks his stream: nothing of Ada's login may come before it.
        let refused = try await bob.submit(bobPage, button: loginButton, fields: ["name": " "], javascript: true)
        #expect(refused.status == 422)
        #expect(refused.text.contains("Tell us your name first"))
        var bobPatches: [EventStreamReader.Patch] = []
        while bobPatches.last.map({ !$0.html.contains("data-napkin-message=\"name\" aria-live=\"polite\">") }) ?? true {
            bobPatches.append(try await bobStream.nextPatch())
        }
        #expect(bobPatches.allSatisfy { !$0.html.contains("Ada") && !$0.html.contains("rh-in") })

        #expect(try await ada.tree().napkin(named: "LoggedInNapkin")?["state"]?["user"]?["name"]?.stringValue == "Ada")
        #expect(try await bob.tree().napkinNames == ["LaunchNapkin", "AnnouncementsNapkin", "LoggedOutNapkin"])
        #expect(try await bob.get("/").text.contains("class=\"rh-out\""))
        #expect(!(try await bob.get("/").text.contains("Ada")))
        for stream in [adaStream, bobStream] { stream.close() }
        await harness.stop()
    }

    @Test("a name with markup comes back escaped in HTML, JSON and patches", arguments: RibHouseHarness.Mode.allCases)
    func markupIsEscaped(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()
        let attack = "<script>alert('ribs')</script>"
        let page = try await guest.get("/")
        let stream = try await guest.events()
        _ = try await stream.nextPatch()
        _ = try await guest.submit(page, button: loginButton, fields: ["name": attack], javascript: true)
        let patch = try await stream.nextPatch { @Sendable in $0.html.contains("rh-in") }
        #expect(patch.html.contains("&lt;script&gt;"))
        #expect(!patch.html.contains("<script>"))

        let html = try await guest.get("/").text
        #expect(html.contains("<span class=\"name\">&lt;script&gt;alert(&#39;ribs&#39;)&lt;/script&gt;</span>")
                || html.contains("<span class=\"name\">&lt;script&gt;alert(&#x27;ribs&#x27;)&lt;/script&gt;</span>"))
        #expect(!html.contains("<script>alert"))

        let json = try await guest.get("/", headers: ["Accept": "application/json"])
        #expect(json.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(!json.text.contains("<script>"), "markup in JSON is escaped, so it cannot be sniffed as HTML")
        #expect(try json.json(JSONValue.self).napkin(named: "LoggedInNapkin")?["state"]?["user"]?["name"]?.stringValue == attack)
        stream.close()
        await harness.stop()
    }

    @Test("an unknown path is the 404 page in the layout, signed in or out")
    func unknownPath() async throws {
        let harness = try await RibHouseHarness.start(.inProcess)
        let guest = harness.client()
        let missing = try await guest.get("/no-such-grill")
        #expect(missing.status == 404)
        #expect(missing.text.contains("rh-missing"))
        _ = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        #expect(try await guest.get("/no-such-grill").status == 404)
        await harness.stop()
    }

    @Test("specials follow the main-actor service into the page")
    func specialsFollowTheService() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let stream = try await guest.events()
        _ = try await stream.nextPatch()
        await harness.ribHouse.specialsService.replace(with: [Special(dish: "Rib tips", price: "$8")])
        let patch = try await stream.nextPatch { @Sendable in $0.html.contains("Rib tips") }
        #expect(patch.html.contains("$8"))
        #expect(try await guest.get("/").text.contains("Rib tips"))
        stream.close()
        await harness.stop()
    }

    /// The board's round, from "Chalked up … · round N".
    nonisolated static func round(in html: String) -> Int? {
        guard let range = html.range(of: "· round ") else { return nil }
        return Int(html[range.upperBound...].prefix { $0.isNumber })
    }
}
