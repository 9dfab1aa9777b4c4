import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// Rib House's sessions against fixation: the id changes whenever who is
/// signed in changes.
@Suite("Rib House sessions", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseSessionTests {
    @Test("login and logout each give the session a new id; a planted id never signs anyone in",
          arguments: RibHouseHarness.Mode.allCases)
    func rotationAtLoginAndLogout(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let victim = harness.client()
        let welcome = try await victim.get("/")
        let planted = try #require(await victim.sessionID)

        let menu = try await victim.submit(welcome, button: loginButton, fields: ["name": "Ada"])
        #expect(menu.text.contains("<span class=\"name\">Ada</span>"))
        let signedIn = try #require(await victim.sessionID)
        #expect(signedIn != planted)

        // The attacker who planted the id holds nothing signed in.
        let attacker = harness.client()
        await attacker.setCookie("napkin_session", planted)
        let theirs = try await attacker.get("/")
        #expect(theirs.text.contains("class=\"rh-out\""))
        #expect(!theirs.text.contains("Ada"))

        let out = try await victim.submit(menu, button: "Logout")
        #expect(out.text.contains("class=\"rh-out\""))
        let signedOut = try #require(await victim.sessionID)
        #expect(signedOut != signedIn)
        #expect(harness.ribHouse.app.session(id: signedIn) == nil)
        await harness.stop()
    }
}
