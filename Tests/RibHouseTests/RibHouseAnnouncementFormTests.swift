import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// A signed-in guest announces from the menu: the form is built with a
/// field helper and a typed action, checked as the guest types, and sends
/// to every open browser only when posted.
@Suite("Rib House announcement form", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseAnnouncementFormTests {
    /// A validation pass of the announcement form of `page` with `text`.
    static func check(_ guest: TestClient, _ page: TestResponse, _ text: String) async throws -> TestResponse {
        let form = try #require(page.form(withButton: "Announce"))
        let fields = form.fields.filter { $0.name != "text" }.map { ($0.name, $0.value) } + [("text", text)]
        return try await guest.post(form.action, form: fields, headers: [
            WireProtocol.Header.client: "1", WireProtocol.Header.validate: "1",
            WireProtocol.Header.csrf: form.value(of: WireProtocol.Field.csrf) ?? "",
        ])
    }

    @Test("the menu's form validates while typing, with a labelled field and a working label")
    func markup() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        let menu = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        #expect(menu.text.contains("class=\"announce\" enctype=\"multipart/form-data\" data-napkin-form data-napkin-validate=\"300\">"))
        let id = try #require(menu.text.firstMatch(of: /<label for="([^"]+)">Announcement<\/label><input type="text" id="([^"]+)" name="text"/))
        #expect(id.output.1 == id.output.2)
        #expect(menu.text.contains("data-napkin-working=\"Announcing…\">Announce</button>"))
        await harness.stop()
    }

    @Test("a validation pass names what is wrong and sends nothing; the post sends the toast to another browser",
          arguments: RibHouseHarness.Mode.allCases)
    func validateThenPost(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let listener = harness.client()
        _ = try await listener.get("/")
        let stream = try await listener.events()
        _ = try await stream.nextPatch()

        let guest = harness.client()
        let menu = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let empty = try await Self.check(guest, menu, "   ")
        #expect(try empty.json(WireProtocol.ValidationData.self) == .init(field: "text", message: "The announcement is empty."))
        let long = try await Self.check(guest, menu, String(repeating: "x", count: 141))
        #expect(try long.json(WireProtocol.ValidationData.self) == .init(field: "text", message: "The announcement is longer than 140 characters."))
        #expect(try await Self.check(guest, menu, "Checked, never sent").status == 204)

        let posted = try await guest.submit(menu, button: "Announce", fields: ["text": "Last call for burnt ends!"], javascript: true)
        #expect(posted.status == 204)
        // The first toast the other browser sees is the posted one: the
        // validation passes sent nothing.
        let toast = try await stream.nextPatch { @Sendable in $0.html.contains("class=\"toast") }
        #expect(toast.html.contains("Last call for burnt ends!"))
        #expect(!toast.html.contains("Checked, never sent"))
        stream.close()
        await harness.stop()
    }

    @Test("without JavaScript a refused announcement comes back with its message under the field and the text typed")
    func refusedWithoutJavaScript() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        let menu = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let typed = String(repeating: "<b>", count: 50)
        let shown = try await guest.submit(menu, button: "Announce", fields: ["text": typed])
        #expect(shown.text.contains("aria-live=\"polite\">The announcement is longer than 140 characters.</p>"))
        #expect(shown.text.contains("name=\"text\" aria-invalid=\"true\""))
        #expect(shown.text.contains("value=\"" + String(repeating: "&lt;b&gt;", count: 50) + "\""))
        await harness.stop()
    }
}
