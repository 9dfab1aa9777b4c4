import Foundation
import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Sessions", .timeLimit(.minutes(1)))
@MainActor
struct SessionTests {
    @Test("the first page creates a session with a safe cookie and renders the tree", arguments: TestApp.Mode.allCases)
    func firstPage(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        #expect(page.status == 200)
        let cookie = try #require(page.headers["Set-Cookie"])
        #expect(cookie.hasPrefix("napkin_session="))
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] { #expect(cookie.contains(attribute)) }
        #expect(!cookie.contains("Secure"))
        let id = try #require(await client.sessionID)
        #expect(id.count == 32)
        #expect(page.text.contains("data-napkin=\"Home\""))
        #expect(page.text.contains("Count: 0"))
        #expect(page.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(page.headers["Referrer-Policy"] == "same-origin")
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(!page.text.contains("<script>"))
        #expect(testApp.app.sessionCount == 1)

        let again = try await client.get("/")
        #expect(again.headers["Set-Cookie"] == nil)
        #expect(testApp.app.sessionCount == 1)
        await testApp.stop()
    }

    @Test("an event stream carries nosniff and none of the headers that govern documents", arguments: TestApp.Mode.allCases)
    func eventStreamHeaders(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let tab = try #require(try await client.get("/").tabID)
        let stream = try await client.send(.head, "\(WebSession.eventsPath)?\(WireProtocol.Query.tab)=\(tab)")
        #expect(stream.status == 200)
        #expect(stream.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        #expect(stream.headers["X-Content-Type-Options"] == "nosniff")
        for documentOnly in ["Content-Security-Policy", "Referrer-Policy", "X-Frame-Options"] {
            #expect(stream.headers[documentOnly] == nil, "\(documentOnly) on an event stream")
        }
        let page = try await client.get("/")
        for header in ["Content-Security-Policy", "Referrer-Policy", "X-Frame-Options", "X-Content-Type-Options"] {
            #expect(page.headers[header] != nil, "no \(header) on a page")
        }
        await testApp.stop()
    }

    @Test("Secure is added to the cookie when configured")
    func secureCookie() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(secureCookies: true))
        let page = try await testApp.client().get("/")
        #expect(page.headers["Set-Cookie"]?.contains("Secure") == true)
        await testApp.stop()
    }

    @Test("static files, API routes and the event stream never create a session", arguments: TestApp.Mode.allCases)
    func noSessionOutsidePages(mode: TestApp.Mode) async throws {
        let publicDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Public").standardized.path
        let testApp = try await TestApp.start(mode, publicDirectory: publicDirectory)
        let client = testApp.client()
        let icon = try await client.get("/favicon.svg")
        #expect(icon.status == 200)
        #expect(icon.headers["Content-Type"]?.hasPrefix("image/svg+xml") == true)
        #expect(icon.headers["Set-Cookie"] == nil)
        let script = try await client.get(WebSession.scriptPath)
        #expect(script.status == 200)
        #expect(script.headers["Set-Cookie"] == nil)
        let ping = try await client.get("/api/ping")
        #expect(ping.text == "pong")
        let events = try await client.events()
        #expect(events.status == 204)
        #expect(await client.sessionID == nil)
        #expect(testApp.app.sessionCount == 0)
        await testApp.stop()
    }

    @Test("a forged or unknown cookie gets a new session, never someone else's", arguments: TestApp.Mode.allCases)
    func forgedCookie(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let alice = testApp.client()
        let page = try await alice.get("/")
        _ = try await alice.submit(page, button: "Save note", fields: ["text": "alice's secret"])
        let aliceID = try #require(await alice.sessionID)

        let mallory = testApp.client()
        for forged in ["0123456789abcdef0123456789abcdef", "../../etc", String(aliceID.dropLast()) + "x"] {
            await mallory.setCookie("napkin_session", forged)
            let response = try await mallory.get("/")
            #expect(!response.text.contains("alice&#39;s secret"))
            let newID = try #require(await mallory.sessionID)
            #expect(newID != aliceID && newID != forged)
        }
        let alicePage = try await alice.get("/")
        #expect(alicePage.text.contains("alice&#39;s secret"))
        await testApp.stop()
    }

    @Test("two sessions never see each other's state or patches", arguments: TestApp.Mode.allCases)
    func sessionsAreSeparate(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let alice = testApp.client()
        let bob = testApp.client()
        let alicePage = try await alice.get("/")
        let bobPage = try await bob.get("/")
        let bobStream = try await bob.events()
        _ = try await bobStream.nextPatch()  // the page as of connecting

        _ = try await alice.submit(alicePage, button: "Save note", fields: ["text": "for alice only"])
        _ = try await bob.submit(bobPage, button: "Save note", fields: ["text": "bob's own"], javascript: true)
        // Had alice's change leaked into bob's stream, it would come first.
        let patch = try await bobStream.nextPatch()
        #expect(patch.html.contains("bob&#39;s own"))
        #expect(!patch.html.contains("for alice only"))
        #expect(try await bob.get("/").text.contains("for alice only") == false)
        bobStream.close()
        await testApp.stop()
    }
}
