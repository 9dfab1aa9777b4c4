import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// Toasts: a page keeps only the newest few, and each can be dismissed with
/// or without JavaScript.
@Suite("Rib House toasts", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseToastTests {
    struct Text: Encodable { let text: String }

    @Test("the interactor shows each announcement as a toast, the newest three; closing one takes it off")
    func announcementsBecomeToasts() async throws {
        let presenter = LaunchNapkinPresenter()
        let interactor = LaunchNapkinInteractor(presenter: presenter, authService: BarbecueAuthService(values: SessionValues()))
        await interactor.activate()
        for n in 1...5 {
            await interactor.announcementsDidReceive(try Announcement(validating: "Round \(n) is up"))
        }
        #expect(presenter.toasts.shown.map(\.content.text) == ["Round 3 is up", "Round 4 is up", "Round 5 is up"])
        await interactor.didDismissToast(presenter.toasts.shown[1].id)
        await interactor.didDismissToast(nil)
        #expect(presenter.toasts.shown.map(\.content.text) == ["Round 3 is up", "Round 5 is up"])
        await interactor.deactivate()
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

    @Test("a toast's close button dismisses it: a plain post comes back to the page without it")
    func closeButtonWithoutJavaScript() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.submit(try await guest.get("/pit"), button: loginButton, fields: ["name": "Ada"])
        let stream = try await guest.events()
        _ = try await stream.nextPatch()
        for text in ["Brisket is up", "Ribs are up"] {
            try await Self.announce(text, in: harness, seenBy: stream)
        }

        let page = try await guest.get("/pit")
        #expect(Self.toastCount(page.text) == 2)
        let back = try await guest.submit(page, button: "×")
        #expect(back.status == 200)
        #expect(back.text.contains("class=\"pitboard\""), "back on the page the guest was on")
        #expect(!back.text.contains("Brisket is up"), "the first toast is gone")
        #expect(back.text.contains("Ribs are up"), "the other stays")
        stream.close()
        await harness.stop()
    }

    @Test("with JavaScript the close button's post answers 204 and the patch drops the toast")
    func closeButtonWithJavaScript() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.get("/")
        let stream = try await guest.events()
        _ = try await stream.nextPatch()
        try await Self.announce("Brisket is up", in: harness, seenBy: stream)

        let dismissed = try await guest.submit(try await guest.get("/"), button: "×", javascript: true)
        #expect(dismissed.status == 204)
        let patch = try await stream.nextPatch { @Sendable in !$0.html.contains("Brisket is up") }
        #expect(Self.toastCount(patch.html) == 0)
        let again = try await guest.get("/")
        #expect(Self.toastCount(again.text) == 0)
        stream.close()
        await harness.stop()
    }

    @Test("a dismissal naming no toast changes nothing and answers no error detail")
    func strayDismissal() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.get("/")
        let stream = try await guest.events()
        _ = try await stream.nextPatch()
        let announced = ContinuousClock.now
        try await Self.announce("Brisket is up", in: harness, seenBy: stream)

        let page = try await guest.get("/")
        for stray in ["999", "not-a-number", ""] {
            let response = try await guest.submit(page, button: "×", fields: ["toast": stray], javascript: true)
            #expect(response.status == 204)
        }
        let after = try await guest.get("/").text
        // The toast leaves by itself after its lifetime (Rib House keeps the
        // default): a run slowed that far, a sanitizer's on a busy machine,
        // cannot tell that from a stray dismissal.
        let lifetime = try #require(Toasts<Announcement>().lifetime)
        if ContinuousClock.now - announced < lifetime {
            #expect(Self.toastCount(after) == 1)
        }
        stream.close()
        await harness.stop()
    }

    /// How many toasts an HTML page or patch shows.
    /// Posts an announcement and waits until `stream`'s page shows it.
    static func announce(_ text: String, in harness: RibHouseHarness, seenBy stream: EventStreamReader) async throws {
        _ = try await harness.client().post("/api/announcements", json: Text(text: text))
        _ = try await stream.nextPatch { @Sendable in $0.html.contains(text) }
    }

    static func toastCount(_ html: String) -> Int {
        html.components(separatedBy: "class=\"toast\"").count - 1
    }
}
