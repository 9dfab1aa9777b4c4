import Foundation
import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// An action answers "invalid" with ``FormError``: the form shows why, with
/// JavaScript (a 422 carrying the fragment) and without (a 303 back to the
/// page that shows it).
@Suite("Form errors", .timeLimit(.minutes(1)))
@MainActor
struct FormErrorTests {
    /// The message element a refused form starts with.
    static func message(_ text: String, in html: String) -> Bool {
        html.contains("<p class=\"napkin-error\" role=\"alert\" id=\"") && html.contains("\">\(text)</p>")
    }

    /// Words from Swift's own errors and types that must never reach a person.
    static let swiftWords = ["Int", "Swift", "DecodingError", "keyNotFound", "typeMismatch", "CodingKeys", "debugDescription", "Optional"]

    @Test("with JavaScript a refused post answers 422 with the fragment, its message, the field marked and what was typed",
          arguments: TestApp.Mode.allCases)
    func refusedWithJavaScript(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let refused = try await client.submit(page, button: "Order", fields: ["name": "  ", "quantity": "3"], javascript: true)
        #expect(refused.status == 422)
        #expect(refused.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(refused.headers["Cache-Control"] == "no-store")
        // The fragment's outer HTML, the same element the page has.
        let opening = try #require(page.text.firstMatch(of: /<div class="napkin" id="n-[0-9a-f]{12}" data-napkin="Order">/))
        #expect(refused.text.hasPrefix(opening.output))
        #expect(refused.text.hasSuffix("</div>"))
        #expect(Self.message("Tell us who the order is for.", in: refused.text))
        #expect(refused.text.contains("data-napkin-field=\"name\""))
        // The view marks the field and gives back what was typed, through problem(for:).
        #expect(refused.text.contains("<input name=\"name\" value=\"  \" aria-invalid=\"true\" aria-describedby=\""))
        #expect(refused.text.contains("<input name=\"quantity\" value=\"3\">"))
        // What the action did before refusing settled first.
        #expect(refused.text.contains("Attempts: 1"))
        // The refused form posts like any other: its napkin fields are there.
        let again = try #require(refused.form(withButton: "Order"))
        #expect(again.value(of: "_action") == "order")
        #expect(again.value(of: "_tab") == page.tabID)
        await testApp.stop()
    }

    @Test("an app error that converts to a FormError refuses the form as one: message, field, what was typed",
          arguments: TestApp.Mode.allCases)
    func convertibleError(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let refused = try await client.submit(page, button: "Order", fields: ["name": "sold-out", "quantity": "2"], javascript: true)
        #expect(refused.status == 422)
        #expect(Self.message("We are out of ribs tonight.", in: refused.text))
        #expect(refused.text.contains("data-napkin-field=\"name\""))
        #expect(refused.text.contains("<input name=\"name\" value=\"sold-out\" aria-invalid=\"true\""))
        #expect(!refused.text.contains("KitchenRefusal"))
        await testApp.stop()
    }

    @Test("without JavaScript a refused post answers 303 to the page, whose next render in the same tab shows the message",
          arguments: TestApp.Mode.allCases)
    func refusedWithoutJavaScript(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let form = try #require(page.form(withButton: "Order"))
        let posted = try await client.post(form.action, form: form.posting(["name": "Ada", "quantity": "40"]))
        #expect(posted.status == 303)
        #expect(posted.headers["Location"] == "/order")
        // A browser without JavaScript names no tab: napkin shows the one posted to.
        await client.forgetTab()
        let shown = try await client.follow(posted)
        #expect(shown.status == 200)
        #expect(shown.tabID == page.tabID)
        #expect(Self.message("Order between 1 and 12.", in: shown.text))
        #expect(shown.text.contains("<input name=\"quantity\" value=\"40\" aria-invalid=\"true\""))
        // It stays until the action succeeds.
        #expect(Self.message("Order between 1 and 12.", in: try await client.get("/order").text))
        await testApp.stop()
    }

    @Test("a browser without napkin's client at all sees the message after the redirect", arguments: TestApp.Mode.allCases)
    func plainBrowser(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = mode == .live ? TestClient(live: testApp.port, javascript: false) : TestClient(inProcess: testApp.router, javascript: false)
        let page = try await client.get("/order")
        await client.forgetTab()
        let shown = try await client.submit(page, button: "Order", fields: ["name": ""])
        #expect(Self.message("Tell us who the order is for.", in: shown.text))
        await testApp.stop()
    }

    @Test("a missing, empty or malformed field gets a short message naming it, never Swift's words", arguments: TestApp.Mode.allCases)
    func decodingFailures(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let form = try #require(page.form(withButton: "Order"))
        let cases: [(quantity: String?, message: String)] = [
            (nil, "Quantity is required."),
            ("", "Quantity is required."),
            ("  ", "Quantity is required."),
            ("three", "Quantity must be a whole number."),
            ("2.5", "Quantity must be a whole number."),
            ("99999999999999999999999", "Quantity must be a whole number."),
        ]
        for (quantity, message) in cases {
            let fields = form.posting(["name": "Ada", "quantity": quantity])
            let refused = try await client.post(form.action, form: fields, headers: ["X-Napkin": "1"])
            #expect(refused.status == 422, "quantity \(quantity ?? "missing")")
            #expect(Self.message(message, in: refused.text), "quantity \(quantity ?? "missing"): \(refused.text)")
            #expect(refused.text.contains("data-napkin-field=\"quantity\""))
            let shown = refused.text.components(separatedBy: "napkin-error").dropFirst().joined()
            for word in Self.swiftWords { #expect(!shown.contains(word), "\(word) in \(shown)") }
        }
        // The decoder refused before the interactor ran.
        #expect(try await client.get("/order").text.contains("Attempts: 0"))
        await testApp.stop()
    }

    @Test("a later successful post of the action clears its message; another action's success does not", arguments: TestApp.Mode.allCases)
    func successClears(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let refused = try await client.submit(page, button: "Order", fields: ["name": "", "quantity": "2"], javascript: true)
        #expect(refused.status == 422)
        // A refused cancel leaves the order's message be, and shows its own.
        let cancelled = try await client.submit(page, button: "Cancel order", javascript: true)
        #expect(cancelled.status == 422)
        #expect(Self.message("There is no order to cancel.", in: cancelled.text))
        #expect(Self.message("Tell us who the order is for.", in: cancelled.text))
        #expect(!cancelled.text.contains("data-napkin-field=\"\""))

        let placed = try await client.submit(page, button: "Order", fields: ["name": "Ada", "quantity": "2"], javascript: true)
        #expect(placed.status == 204)
        let after = try await client.get("/order")
        #expect(after.text.contains("2 for Ada"))
        #expect(!after.text.contains("Tell us who the order is for."))
        #expect(!after.text.contains("aria-invalid"))
        #expect(after.text.contains("<input name=\"name\" value=\"\">"))
        #expect(Self.message("There is no order to cancel.", in: after.text))
        await testApp.stop()
    }

    @Test("the message and the change that clears it reach the tab's stream too", arguments: TestApp.Mode.allCases)
    func patches(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let stream = try await client.events()
        _ = try await stream.nextPatch()  // the page as of connecting
        _ = try await client.submit(page, button: "Order", fields: ["name": "", "quantity": "2"], javascript: true)
        let refused = try await stream.nextPatch { Self.message("Tell us who the order is for.", in: $0.html) }
        #expect(refused.html.contains("Attempts: 1"))
        _ = try await client.submit(page, button: "Order", fields: ["name": "Ada", "quantity": "2"], javascript: true)
        // The success may reach the stream before its message is cleared,
        // never the other way round.
        let cleared = try await stream.nextPatch { !$0.html.contains("napkin-error") }
        #expect(cleared.html.contains("2 for Ada"))
        stream.close()
        await testApp.stop()
    }

    @Test("leaving the page drops the message: the same view controller shows none when it comes back")
    func leavingClears() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        #expect(try await client.submit(page, button: "Order", fields: ["name": ""], javascript: true).status == 422)
        #expect(Self.message("Tell us who the order is for.", in: try await client.get("/order").text))
        _ = try await client.get("/")
        let back = try await client.get("/order")
        #expect(back.text.contains("Attempts: 1"), "the same napkin, attached again")
        #expect(!back.text.contains("napkin-error"))
        await testApp.stop()
    }

    @Test("forms with a key: the message shows only in the form that was posted", arguments: TestApp.Mode.allCases)
    func keyedForms(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        #expect(page.form(withButton: "Rate brisket")?.value(of: "_key") == "brisket")
        let refused = try await client.submit(page, button: "Rate brisket", fields: ["stars": "9"], javascript: true)
        #expect(refused.status == 422)
        let ribs = try #require(refused.text.components(separatedBy: "Rate ribs").first?.components(separatedBy: "<form").last)
        let brisket = try #require(refused.text.components(separatedBy: "Rate brisket").first?.components(separatedBy: "<form").last)
        #expect(!ribs.contains("napkin-error"))
        #expect(Self.message("Give 1 to 5 stars.", in: brisket))
        // Each form's message has an id of its own.
        let ids = refused.text.components(separatedBy: "napkin-error\" role=\"alert\" id=\"").dropFirst().map { $0.prefix(while: { $0 != "\"" }) }
        #expect(ids.count == 1)
        #expect(try await client.submit(page, button: "Rate ribs", fields: ["stars": "5"], javascript: true).status == 204)
        #expect(!(try await client.get("/order").text.contains("napkin-error")))
        await testApp.stop()
    }

    @Test("hostile posts: markup comes back escaped, a huge field is not kept or echoed, garbage is a 400; the session survives",
          arguments: TestApp.Mode.allCases)
    func hostile(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let form = try #require(page.form(withButton: "Order"))
        let headers: HTTPHeaders = ["X-Napkin": "1"]

        // Markup in a value and in the app's own message (which quotes the name).
        let script = "<script>alert(1)</script>\"'&"
        let quoted = try await client.post(form.action, form: form.posting(["name": "taken:" + script, "quantity": "2"]), headers: headers)
        #expect(quoted.status == 422)
        #expect(!quoted.text.contains("<script>"))
        #expect(quoted.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp; already ordered today."))
        #expect(quoted.text.contains("value=\"taken:&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;\""))

        // A huge value: a short message, and the value is neither kept nor sent back.
        let huge = String(repeating: "9", count: 300_000)
        let big = try await client.post(form.action, form: form.posting(["name": "Ada", "quantity": huge]), headers: headers)
        #expect(big.status == 422)
        #expect(Self.message("Quantity must be a whole number.", in: big.text))
        #expect(big.body.count < 20_000)
        #expect(!big.text.contains(String(repeating: "9", count: 1_000)))
        #expect(big.text.contains("value=\"Ada\""))

        // Thousands of fields of napkin's and the attacker's names.
        let many = form.posting(["quantity": nil], adding: (0..<5_000).map { ("f\($0)", "<b>") } + [("_x", "y")])
        let flood = try await client.post(form.action, form: many, headers: headers)
        #expect(flood.status == 422)
        #expect(flood.body.count < 20_000)
        #expect(!flood.text.contains("<b>"))

        // A huge form key is not kept either: the message is in no form, the problem is still there.
        let rate = try #require(page.form(withButton: "Rate ribs"))
        let longKey = String(repeating: "k", count: 200_000)
        let keyed = try await client.post(rate.action, form: rate.posting(["_key": longKey, "stars": "0"]), headers: headers)
        #expect(keyed.status == 422)
        #expect(keyed.body.count < 20_000)
        #expect(!keyed.text.contains("Give 1 to 5 stars."))
        let sessionID = try #require(await client.sessionID)
        let fragmentID = try #require(rate.value(of: "_fragment"))
        let problem = try #require(testApp.app.session(id: sessionID)?.mostRecentTab?.fragment(id: fragmentID)?.problem(for: "rate"))
        #expect(problem.key == nil)
        #expect(problem.message == "Give 1 to 5 stars.")

        // Not a form at all.
        for body in ["quantity=%zz&name=a", "name=%ff%fe", "%"] {
            let garbage = try await client.send(
                .post, form.action, headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Napkin": "1"],
                body: Array(body.utf8))
            #expect(garbage.status == 400, "\(body): \(garbage.status)")
            #expect(garbage.text.count < 200)
        }
        let wrongType = try await client.send(.post, form.action, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        #expect(wrongType.status == 415)

        let after = try await client.get("/order")
        #expect(after.status == 200)
        #expect(after.headers["Set-Cookie"] == nil)
        await testApp.stop()
    }

    @Test("the problem keeps the posted fields but napkin's own, within a budget")
    func keptValues() {
        let fields = [("_csrf", "secret"), ("name", "Ada"), ("huge", String(repeating: "x", count: 20_000)), ("tag", "a"), ("tag", "b")]
        let problem = FormProblem(FormError("No."), id: "p", key: nil, fields: fields.map { (name: $0.0, value: $0.1) })
        #expect(problem.values == ["name": "Ada", "tag": "b"])
        #expect(problem.values(of: "tag") == ["a", "b"])
        #expect(problem.values(of: "_csrf").isEmpty)
        #expect(problem.values(of: "missing").isEmpty)
    }

    @Test("decoding messages: field names read as words; numbers, choices and switches each say what they need")
    func decodingMessages() throws {
        enum Size: String, Decodable { case small, large }
        struct Everything: Decodable {
            let firstName: String
            let unit_price: Double
            let size: Size
            let subscribed: Bool
        }
        func message(_ body: String) -> FormError? {
            let bytes = Array(body.utf8)
            let decoded = Result { try FormDecoder().decode(Everything.self, from: bytes) }
            guard case .failure(let error as DecodingError) = decoded else { return nil }
            let request = Request(method: .post, target: "/", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: bytes)
            return FormError(decoding: error, fields: (try? request.formFields()) ?? [])
        }
        #expect(message("unit_price=1&size=small") == FormError("First name is required.", field: "firstName"))
        #expect(message("firstName=A&unit_price=cheap&size=small") == FormError("Unit price must be a number.", field: "unit_price"))
        #expect(message("firstName=A&unit_price=1&size=huge") == FormError("Size is not valid.", field: "size"))
        #expect(message("firstName=A&unit_price=1&size=") == FormError("Size is required.", field: "size"))
        #expect(message("firstName=A&unit_price=1&size=small&subscribed=maybe") == FormError("Subscribed must be yes or no.", field: "subscribed"))
        #expect(message("firstName=A&unit_price=1&size=small") == nil)
        #expect(FormError.label("homepageURL") == "Homepage url")
        #expect(FormError.label("e-mail") == "E mail")
        #expect(FormError.label("address2Line") == "Address2 line")
        #expect(FormError.label("_") == "This field")
    }
}
