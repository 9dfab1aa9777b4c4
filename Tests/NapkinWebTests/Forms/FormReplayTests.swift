import Foundation
import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// Every render of a form carries a fresh token; a post that ran spends
/// it, and a replay of that post (a double click, a resent request) is
/// answered as the first was without running the action again.
@Suite("Replayed form posts", .timeLimit(.minutes(1)))
@MainActor
struct FormReplayTests {
    @Test("each form of a page carries its own token, new at each render")
    func tokens() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        let tokens = page.forms.compactMap { $0.value(of: WireProtocol.Field.formToken) }
        #expect(tokens.count == page.forms.count)
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy(SecureToken.isWellFormed))
        await testApp.stop()
    }

    @Test("with JavaScript the replay answers 204 again, runs nothing, and the answers carry the form's next token",
          arguments: TestApp.Mode.allCases)
    func replayWithJavaScript(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let form = try #require(page.form(withButton: "Send note"))
        let headers: HTTPHeaders = [WireProtocol.Header.client: "1", WireProtocol.Header.csrf: form.value(of: WireProtocol.Field.csrf) ?? ""]
        let first = try await client.post(form.action, form: form.posting(["text": "hot"]), headers: headers)
        let replay = try await client.post(form.action, form: form.posting(["text": "hot"]), headers: headers)
        #expect(first.status == 204)
        #expect(replay.status == 204)
        #expect(try await client.get("/order").text.contains("Notes: 1"))
        // The next token the first answer gave posts once more.
        let next = try #require(first.headers[WireProtocol.Header.formToken])
        #expect(SecureToken.isWellFormed(next))
        #expect(next != page.form(withButton: "Send note")?.value(of: WireProtocol.Field.formToken))
        let again = try await client.post(form.action, form: form.posting(["text": "hot", "_token": next]), headers: headers)
        #expect(again.status == 204)
        #expect(try await client.get("/order").text.contains("Notes: 2"))
        await testApp.stop()
    }

    @Test("without JavaScript the replay gets the same 303, runs nothing, and the page after it has a new token",
          arguments: TestApp.Mode.allCases)
    func replayWithoutJavaScript(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/order")
        let form = try #require(page.form(withButton: "Send note"))
        let fields = form.posting(["text": "hot"])
        let first = try await client.post(form.action, form: fields)
        let replay = try await client.post(form.action, form: fields)
        #expect(first.status == 303)
        #expect(replay.status == 303)
        #expect(replay.headers["Location"] == first.headers["Location"])
        let shown = try await client.follow(replay)
        #expect(shown.text.contains("Notes: 1"))
        // The page shown after the post is rendered again: its form posts.
        let token = shown.form(withButton: "Send note")?.value(of: WireProtocol.Field.formToken)
        #expect(token != nil && token != form.value(of: WireProtocol.Field.formToken))
        _ = try await client.submit(shown, button: "Send note", fields: ["text": "hot"])
        #expect(try await client.get("/order").text.contains("Notes: 2"))
        await testApp.stop()
    }

    @Test("a burst of the same post runs once")
    func burst() async throws {
        let testApp = try await TestApp.start(.live)
        let client = testApp.client()
        let page = try await client.get("/order")
        let form = try #require(page.form(withButton: "Send note"))
        let fields = form.posting(["text": "hot"])
        let headers: HTTPHeaders = [WireProtocol.Header.client: "1", WireProtocol.Header.csrf: form.value(of: WireProtocol.Field.csrf) ?? ""]
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await client.post(form.action, form: fields, headers: headers).status } }
            var statuses: [Int] = []
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses == Array(repeating: 204, count: 8))
        #expect(try await client.get("/order").text.contains("Notes: 1"))
        await testApp.stop()
    }

    @Test("a refused post leaves its token unspent: corrected, the same form posts")
    func refusedIsNotSpent() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        let refused = try await client.submit(page, button: "Send note", fields: ["text": "burnt"], javascript: true)
        #expect(refused.status == 422)
        #expect(refused.headers[WireProtocol.Header.formToken] == nil)
        let taken = try await client.submit(page, button: "Send note", fields: ["text": "smoked"], javascript: true)
        #expect(taken.status == 204)
        #expect(try await client.get("/order").text.contains("Notes: 2"))
        await testApp.stop()
    }

    @Test("a post without a token, or with a malformed one, runs each time (napkin's own clients always send one)")
    func withoutToken() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        for token in [nil, "", "x", String(repeating: "Z", count: 32)] {
            let posted = try await client.submit(page, button: "Send note", fields: ["text": "hot", "_token": token ?? ""], javascript: true)
            #expect(posted.status == 204)
        }
        #expect(try await client.get("/order").text.contains("Notes: 4"))
        await testApp.stop()
    }

    @Test("a session keeps a bounded number of spent tokens however many it posts")
    func bounded() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        let page = try await client.get("/order")
        for number in 0..<(FormTokenLedger.capacity + 8) {
            let digits = String(number, radix: 16)
            let token = String(repeating: "0", count: 32 - digits.count) + digits
            let posted = try await client.submit(page, button: "Send note", fields: ["text": "hot", "_token": token], javascript: true)
            #expect(posted.status == 204)
        }
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.formTokens.count == FormTokenLedger.capacity)
        await testApp.stop()
    }
}
