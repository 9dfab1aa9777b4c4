import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// Toasts: a page keeps only the newest few.
@Suite("Rib House toasts")
@MainActor
struct RibHouseToastTests {
    struct Text: Encodable { let text: String }

    @Test("the presenter keeps the newest three toasts; the oldest leave first")
    func presenterKeepsTheNewestThree() {
        let presenter = LaunchNapkinPresenter(viewController: LaunchNapkinViewController())
        for id in 1...5 {
            presenter.present(toast: Toast(id: id, text: "Toast \(id)"))
            #expect(presenter.toasts.count == min(id, 3))
        }
        #expect(presenter.toasts.map(\.id) == [3, 4, 5])
        presenter.dismissToast(id: 4)
        #expect(presenter.toasts.map(\.id) == [3, 5])
        presenter.present(toast: Toast(id: 6, text: "Toast 6"))
        #expect(presenter.toasts.map(\.id) == [3, 5, 6])
    }

    @Test("a burst keeps at most three expiry timers in the session")
    func interactorKeepsAFewTimers() async throws {
        let presenter = LaunchNapkinPresenter(viewController: LaunchNapkinViewController())
        let interactor = LaunchNapkinInteractor(presenter: presenter, authService: BarbecueAuthService())
        await interactor.activate()
        let idle = interactor.lifecycle.boundTaskCount
        for n in 1...7 {
            await interactor.announcementsDidReceive(try Announcement(validating: "Round \(n) is up"))
            #expect(interactor.lifecycle.boundTaskCount - idle <= 3, "after announcement \(n)")
        }
        #expect(presenter.toasts.map(\.text) == ["Round 5 is up", "Round 6 is up", "Round 7 is up"])
        await interactor.deactivate()
        #expect(interactor.lifecycle.boundTaskCount == 0)
    }

    @Test("a burst of announcements leaves three toasts on the page, the newest", arguments: RibHouseHarness.Mode.allCases)
    func burstOfAnnouncementsIsCapped(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()
        _ = try await guest.get("/")
        let stream = try await guest.events()
        _ = try await stream.nextPatch()

        let announcer = harness.client()
        for n in 1...7 {
            #expect(try await announcer.post("/api/announcements", json: Text(text: "Round \(n) is up")).status == 202)
        }
        let last = try await stream.nextPatch { @Sendable in $0.html.contains("Round 7 is up") }
        #expect(Self.toastCount(last.html) == 3)
        let page = try await guest.get("/").text
        #expect(Self.toastCount(page) == 3)
        for n in 5...7 { #expect(page.contains("Round \(n) is up")) }
        for n in 1...4 { #expect(!page.contains("Round \(n) is up")) }
        #expect(try await guest.tree().napkin(named: "LaunchNapkin")?["state"]?["toasts"]?.elements.count == 3)
        stream.close()
        await harness.stop()
    }

    /// How many toasts an HTML page or patch shows.
    static func toastCount(_ html: String) -> Int {
        html.components(separatedBy: "class=\"toast\"").count - 1
    }
}
