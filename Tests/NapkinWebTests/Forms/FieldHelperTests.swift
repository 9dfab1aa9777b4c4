import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// Field helpers in a view: a refused post comes back with what was typed,
/// the message beside its field (not again at the top of the form), and
/// the field wired to it; typed actions post like named ones.
@Suite("Field helpers", .timeLimit(.minutes(1)))
@MainActor
struct FieldHelperTests {
    @Test("a page's fields: labels tied to controls, the app's default values, and empty message elements")
    func fresh() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let page = try await testApp.client().get("/order")
        let text = try #require(page.text.firstMatch(of: /<label for="(n-[0-9a-f]{12}-field-[0-9a-f]{12})">Note<\/label><textarea id="(n-[0-9a-f]{12}-field-[0-9a-f]{12})" name="text" maxlength="40"><\/textarea>/))
        #expect(text.output.1 == text.output.2)
        #expect(page.text.contains("<option value=\"beans\" selected>Beans</option>"))
        #expect(page.text.contains("<p class=\"napkin-field-message\" id=\"\(text.output.1)-message\" data-napkin-message=\"text\" aria-live=\"polite\" hidden></p>"))
        #expect(page.text.contains("<button type=\"submit\" data-napkin-working=\"Sending…\">Send note</button>"))
        // Each field has its own id.
        #expect(page.text.matches(of: /id="n-[0-9a-f]{12}-field-[0-9a-f]{12}"/).count == 3)
        await testApp.stop()
    }

    @Test("after a refused post every field shows what was posted, and the one at fault its message and ARIA",
          arguments: TestApp.Mode.allCases)
    func refused(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let typed = "<b>\"burnt\"</b> & " + String(repeating: "x", count: 20)
        let refused = try await client.submit(page, button: "Send note", fields: ["text": typed, "side": "slaw", "urgent": "on"], javascript: true)
        #expect(refused.status == 422)
        let message = try #require(refused.text.firstMatch(of: /<p class="napkin-field-message" id="([^"]+)" data-napkin-message="text" aria-live="polite">Keep the note to 20 characters.<\/p>/))
        #expect(refused.text.contains("name=\"text\" aria-invalid=\"true\" aria-describedby=\"\(message.output.1)\" maxlength=\"40\">&lt;b&gt;&quot;burnt&quot;&lt;/b&gt; &amp; xxxx"))
        #expect(refused.text.contains("<option value=\"slaw\" selected>Slaw</option><option value=\"beans\">Beans</option>"))
        #expect(refused.text.contains("name=\"urgent\" value=\"on\" checked>"))
        // Shown beside the field, not again at the top of the form.
        #expect(!refused.text.contains("napkin-error"))
        // The other fields are not marked.
        #expect(refused.text.components(separatedBy: "aria-invalid").count == 2)
        // The checks refused it before the listener ran.
        #expect(refused.text.contains("Notes: 0"))
        // A post the listener refuses shows its message the same way.
        let burnt = try await client.submit(page, button: "Send note", fields: ["text": "burnt"], javascript: true)
        #expect(burnt.text.contains("aria-live=\"polite\">The kitchen is out of burnt notes.</p>"))
        #expect(burnt.text.contains("Notes: 1"))
        await testApp.stop()
    }

    @Test("without JavaScript the page after a refused post shows the same")
    func refusedWithoutJavaScript() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        await client.forgetTab()
        let shown = try await client.submit(page, button: "Send note", fields: ["text": ""])
        #expect(shown.text.contains("aria-live=\"polite\">Write a note.</p>"))
        #expect(shown.text.contains("name=\"text\" aria-invalid=\"true\""))
        await testApp.stop()
    }

    @Test("a typed action posts like a named one, and a success clears its message")
    func typedAction() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        #expect(page.form(withButton: "Send note")?.value(of: WireProtocol.Field.action) == FormAction.note.name)
        _ = try await client.submit(page, button: "Send note", fields: ["text": ""], javascript: true)
        let taken = try await client.submit(page, button: "Send note", fields: ["text": "ribs"], javascript: true)
        #expect(taken.status == 204)
        let after = try await client.get("/order")
        #expect(after.text.contains("Notes: 1"))
        #expect(!after.text.contains("Write a note."))
        await testApp.stop()
    }
}
