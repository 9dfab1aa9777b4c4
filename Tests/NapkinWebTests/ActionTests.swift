import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Form actions", .timeLimit(.minutes(1)))
@MainActor
struct ActionTests {
    @Test("a plain post answers 303 back to the page, which shows the new state", arguments: TestApp.Mode.allCases)
    func plainPost(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let form = try #require(page.form(withButton: "Increment"))
        let posted = try await client.post(form.action, form: form.posting())
        #expect(posted.status == 303)
        #expect(posted.headers["Location"] == "/")
        let after = try await client.follow(posted)
        #expect(after.text.contains("Count: 1"))
        await testApp.stop()
    }

    @Test("a fetch post answers 204, and a GET right after sees the new state", arguments: TestApp.Mode.allCases)
    func fetchPost(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let response = try await client.submit(page, button: "Increment", javascript: true)
        #expect(response.status == 204)
        #expect(try await client.get("/").text.contains("Count: 1"))
        await testApp.stop()
    }

    @Test("a post settles fan-out consequences before answering: the shared counter shows at once", arguments: TestApp.Mode.allCases)
    func settlesFanOut(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/detail")
        let after = try await client.submit(page, button: "Bump")
        #expect(after.text.contains("Shared: 1"))
        #expect(after.text.contains("Detail sees 1"))
        await testApp.stop()
    }

    @Test("bad tokens, origins, fragments, actions and bodies are refused with short messages; the session survives",
          arguments: TestApp.Mode.allCases)
    func refusals(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let form = try #require(page.form(withButton: "Increment"))
        let missingToken = try await client.post(form.action, form: form.posting(["_csrf": nil]))
        #expect(missingToken.status == 403)
        #expect(missingToken.text.contains("CSRF"))
        let wrongToken = try await client.post(form.action, form: form.posting(["_csrf": String(repeating: "0", count: 32)]))
        #expect(wrongToken.status == 403)
        let crossOrigin = try await client.post(form.action, form: form.posting(), headers: ["Origin": "http://evil.example"])
        #expect(crossOrigin.status == 403)
        // A foreign Origin is refused however many of its own come first.
        var twoOrigins: HTTPHeaders = ["Host": "napkin.test", "Origin": "http://napkin.test"]
        twoOrigins.add(name: "Origin", value: "http://evil.example")
        let hidden = try await client.post(form.action, form: form.posting(), headers: twoOrigins)
        #expect(hidden.status == 403)
        let unknownFragment = try await client.post(form.action, form: form.posting(["_fragment": "n-999999"]))
        #expect(unknownFragment.status == 404)
        let unknownAction = try await client.post(form.action, form: form.posting(["_action": "launchMissiles"]))
        #expect(unknownAction.status == 404)
        #expect(unknownAction.text == "Unknown action.")
        let malformed = try await client.send(
            .post, form.action, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array("a=%zz".utf8))
        #expect(malformed.status == 400)
        let wrongType = try await client.send(.post, form.action, headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
        #expect(wrongType.status == 415)
        let noteForm = try #require(page.form(withButton: "Save note"))
        // A form that lacks a field is a form error: back to the page, which says so.
        let missingField = try await client.post(noteForm.action, form: noteForm.posting(["text": nil]))
        #expect(missingField.status == 303)
        #expect(try await client.follow(missingField).text.contains(">Text is required.</p>"))

        // None of it touched the session.
        let after = try await client.get("/")
        #expect(after.headers["Set-Cookie"] == nil)
        #expect(after.text.contains("Count: 0"))
        #expect(try await client.submit(after, button: "Increment").text.contains("Count: 1"))
        // Its own origin alone is taken: the refusal above was the foreign one's.
        let sameOrigin = try await client.post(form.action, form: form.posting(), headers: ["Host": "napkin.test", "Origin": "http://napkin.test"])
        #expect(sameOrigin.status != 403, "\(sameOrigin.status)")
        await testApp.stop()
    }

    @Test("a CSRF token stolen from another session is refused", arguments: TestApp.Mode.allCases)
    func stolenToken(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let victim = testApp.client()
        let attacker = testApp.client()
        let victimPage = try await victim.get("/")
        let attackerPage = try await attacker.get("/")
        let stolen = try #require(victimPage.form(withButton: "Increment")?.value(of: "_csrf"))
        let attackerForm = try #require(attackerPage.form(withButton: "Increment"))
        #expect(try await attacker.post(attackerForm.action, form: attackerForm.posting(["_csrf": stolen])).status == 403)
        // The victim's form with the attacker's own session runs, if at all,
        // in the attacker's session (fragment ids name a place in a tree, the
        // same in every session): the victim is untouched.
        let victimForm = try #require(victimPage.form(withButton: "Increment"))
        let attackerToken = try #require(attackerForm.value(of: "_csrf"))
        let crossed = victimForm.posting(["_csrf": attackerToken])
        #expect(try await attacker.post(victimForm.action, form: crossed).status != 403)
        #expect(try await victim.get("/").text.contains("Count: 0"))
        await testApp.stop()
    }

    @Test("a post without a session is refused and creates none")
    func postWithoutSession() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let response = try await testApp.client().post(WebSession.actionPath, form: [("_action", "increment")])
        #expect(response.status == 403)
        #expect(testApp.app.sessionCount == 0)
        await testApp.stop()
    }

    @Test("a body over the server's limit answers 413 and the session survives")
    func tooLarge() async throws {
        let testApp = try await TestApp.start(.live, serverConfiguration: ServerConfiguration(maxRequestBodySize: 1024))
        let client = testApp.client()
        let page = try await client.get("/")
        let form = try #require(page.form(withButton: "Save note"))
        let fields = form.posting(adding: [("text", String(repeating: "x", count: 4096))])
        #expect(try await client.post(form.action, form: fields).status == 413)
        #expect(try await client.get("/").status == 200)
        await testApp.stop()
    }
}
