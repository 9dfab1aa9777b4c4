import NapkinTesting
import Testing
@testable import RibHouse

/// The last step of the Rib House tutorial: sign in, open the Pit Board,
/// and watch it move — with no browser and no socket.
@Suite("Rib House tutorial", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseTutorialTests {
    @Test("a guest signs in, opens the Pit Board and sees the next tick live")
    func signInAndWatchThePit() async throws {
        let ribHouse = RibHouseApp.make(publicDirectory: nil)
        let guest = TestClient(inProcess: ribHouse.router)

        let welcome = try await guest.get("/")
        #expect(welcome.text.contains("Step inside the smokehouse."))

        let menu = try await guest.submit(welcome, button: "Login →", fields: ["name": "Ada"])
        #expect(menu.text.contains("Howdy, <span class=\"name\">Ada</span>"))

        let board = try await menu.click(link: "Pit Board")
        #expect(board.text.contains("The Pit Board"))
        #expect(try await guest.tree(at: "/pit").napkinNames.contains("PitBoardNapkin"))

        let stream = try await guest.events()
        _ = try await stream.nextPatch()   // the whole page first
        await ribHouse.pitService.tick()
        let pit = await ribHouse.pitService.current
        let patch = try await stream.nextPatch { @Sendable in $0.html.contains("round \(pit.round)") }
        #expect(patch.html.contains("\(pit.smokers[0].temperature)°F"))

        await ribHouse.shutdown()
    }
}
