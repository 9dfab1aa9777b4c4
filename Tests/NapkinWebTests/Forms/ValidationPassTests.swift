import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A validation pass runs the action's decoder and checks only: it answers
/// with the message to show, or nothing, and the listener never hears of it.
@Suite("Validation while typing", .timeLimit(.minutes(1)))
@MainActor
struct ValidationPassTests {
    /// Posts the note form of `page` as napkin's client's validation pass does.
    static func validate(
        _ client: TestClient, _ page: TestResponse, _ changes: [String: String?], headers extra: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        let form = try #require(page.form(withButton: "Send note"))
        var headers: HTTPHeaders = [
            WireProtocol.Header.client: "1", WireProtocol.Header.validate: "1",
            WireProtocol.Header.csrf: form.value(of: WireProtocol.Field.csrf) ?? "",
        ]
        for (name, value) in extra { headers[name] = value }
        return try await client.post(form.action, form: form.posting(changes), headers: headers)
    }

    @Test("the form of an action that validates while typing says so, with its quiet time")
    func marked() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let page = try await testApp.client().get("/order")
        #expect(page.text.contains("<form method=\"post\" action=\"/_napkin/action\" class=\"note\" data-napkin-form data-napkin-validate=\"250\">"))
        // An action not marked is not.
        #expect(page.text.components(separatedBy: "data-napkin-validate").count == 2)
        await testApp.stop()
    }

    @Test("a pass answers the check's message for the field, or 204; the listener never runs and nothing is kept",
          arguments: TestApp.Mode.allCases)
    func noSideEffect(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let long = try await Self.validate(client, page, ["text": String(repeating: "x", count: 21)])
        #expect(long.status == 200)
        #expect(long.headers["Cache-Control"] == "no-store")
        #expect(try long.json(WireProtocol.ValidationData.self) == .init(field: "text", message: "Keep the note to 20 characters."))
        let empty = try await Self.validate(client, page, ["text": ""])
        #expect(try empty.json(WireProtocol.ValidationData.self) == .init(field: "text", message: "Write a note."))
        // An app error that converts to a FormError, too.
        let soup = try await Self.validate(client, page, ["text": "soup"])
        #expect(try soup.json(WireProtocol.ValidationData.self) == .init(field: "name", message: "We are out of soup tonight."))
        // The decoder's own refusal comes the same way.
        let missing = try await Self.validate(client, page, ["side": nil, "text": "ok"])
        #expect(try missing.json(WireProtocol.ValidationData.self) == .init(field: "side", message: "Side is required."))
        // A note the check takes, even one the listener would refuse: the
        // pass never asks the listener.
        #expect(try await Self.validate(client, page, ["text": "fine"]).status == 204)
        #expect(try await Self.validate(client, page, ["text": "burnt"]).status == 204)
        // The listener never ran, no problem was kept, and the form's token
        // is unspent: the same form then posts for real, once.
        let after = try await client.get("/order")
        #expect(after.text.contains("Notes: 0"))
        #expect(!after.text.contains("napkin-error"))
        #expect(!after.text.contains("aria-invalid"))
        let posted = try await client.submit(page, button: "Send note", fields: ["text": "fine"], javascript: true)
        #expect(posted.status == 204)
        #expect(try await client.get("/order").text.contains("Notes: 1"))
        await testApp.stop()
    }

    @Test("a pass is refused without the CSRF token, from another origin, for an unknown fragment or action, and for an action not marked")
    func refusals() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        #expect(try await Self.validate(client, page, ["_csrf": nil], headers: [WireProtocol.Header.csrf: "0"]).status == 403)
        #expect(try await Self.validate(client, page, [:], headers: ["Origin": "http://evil.example"]).status == 403)
        #expect(try await Self.validate(client, page, ["_fragment": "n-000000000000"]).status == 404)
        #expect(try await Self.validate(client, page, ["_action": "nope"]).status == 404)
        #expect(try await Self.validate(client, page, ["_action": "order", "name": "", "quantity": "1"]).status == 400)
        #expect(try await Self.validate(client, page, ["_action": "cancel"]).status == 400)
        #expect(try await client.get("/order").text.contains("Attempts: 0"))
        await testApp.stop()
    }
}
