import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A session's id rotation as an attacker races it: once an action rotates
/// the id, nothing that carries the old one sees the session again.
@Suite("Rotation", .timeLimit(.minutes(1)))
@MainActor
struct RotationTests {
    @Test("a request with the old id while the rotation is still being written finds no session, held or in the records",
          arguments: TestApp.Mode.allCases)
    func oldIDDeadBeforeTheWrite(mode: TestApp.Mode) async throws {
        let records = GatedRecords()
        let testApp = try await TestApp.start(mode, configuration: NapkinConfiguration(sessionRecords: records))
        let victim = testApp.client()
        let page = try await victim.get("/")
        let planted = try #require(await victim.sessionID)

        let signingIn = Task { try await victim.submit(page, button: "Sign in", javascript: true) }
        // The rotation happened in memory; the old record is not yet gone.
        await records.deleteStarted()
        let thief = testApp.client()
        await thief.setCookie("napkin_session", planted)
        let theirs = try await thief.get("/")
        #expect(theirs.headers["Set-Cookie"] != nil, "the old id was served as a live session")
        #expect(await thief.sessionID != planted)
        let post = try await thief.post(WebSession.actionPath, form: [("_csrf", page.form(withButton: "Increment")?.value(of: "_csrf") ?? "")])
        #expect(post.status == 403)

        records.open()
        let signedIn = try await signingIn.value
        #expect(signedIn.status == 204)
        #expect(await victim.sessionID != planted)
        #expect(testApp.app.session(id: planted) == nil)
        await testApp.stop()
    }

    @Test("sign-ins posted at once on one session run in turn: one gets the new id, the others are refused",
          arguments: TestApp.Mode.allCases)
    func concurrentRotationsSerialize(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let planted = try #require(await client.sessionID)
        let form = try #require(page.form(withButton: "Sign in"))
        let headers: HTTPHeaders = ["X-Napkin": "1"]
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<10 {
                let thief = testApp.client()
                await thief.setCookie("napkin_session", planted)
                group.addTask { @Sendable in
                    let answer = try await thief.post(form.action, form: form.posting(), headers: headers)
                    return (answer.status, answer.headers["Set-Cookie"])
                }
            }
            var statuses: [(Int, String?)] = []
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses.filter { $0.0 == 204 && $0.1 != nil }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0.0 == 403 && $0.1 == nil }.count == 9, "\(statuses)")
        #expect(testApp.app.sessionCount == 1)
        await testApp.stop()
    }

    @Test("the CSRF token rotates with the id: the old token no longer posts, even with the new cookie",
          arguments: TestApp.Mode.allCases)
    func tokenRotates(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let oldToken = try #require(page.form(withButton: "Increment")?.value(of: "_csrf"))
        let signIn = try await client.submit(page, button: "Sign in", javascript: true)
        #expect(signIn.status == 204)
        let stale = try await client.submit(page, button: "Increment", javascript: true)
        #expect(stale.status == 403)
        let fresh = try await client.navigate(to: "/")
        let newToken = try #require(fresh.form(withButton: "Increment")?.value(of: "_csrf"))
        #expect(newToken != oldToken)
        // The response that rotated it told the page the new token, for
        // the forms it rendered before; no other response carries one.
        #expect(signIn.headers["X-CSRF-Token"] == newToken)
        #expect(fresh.headers["X-CSRF-Token"] == nil)
        #expect(try await client.submit(fresh, button: "Increment", javascript: true).status == 204)
        await testApp.stop()
    }

    @Test("a stream opened with the old id gets no patch after the rotation and is told to reconnect; only the browser holding the new cookie comes back",
          arguments: TestApp.Mode.allCases)
    func streamsOfTheOldID(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let victim = testApp.client()
        let page = try await victim.get("/")
        let planted = try #require(await victim.sessionID)
        let mine = try await victim.events()
        _ = try await mine.nextPatch()
        let thief = testApp.client()
        await thief.setCookie("napkin_session", planted)
        let theirs = try await thief.events()
        #expect(theirs.status == 200)
        _ = try await theirs.nextPatch()

        #expect(try await victim.submit(page, button: "Sign in", javascript: true).status == 204)
        let again = try await victim.navigate(to: "/")
        #expect(try await victim.submit(again, button: "Increment", javascript: true).status == 204)
        _ = try await mine.nextPatch { $0.html.contains("Count: 1") }
        // The thief's stream ends without a patch: its reconnect, with the
        // old cookie, finds no session.
        await #expect(throws: TestClientError.self) {
            while true {
                let event = try await theirs.next()
                #expect(event.event != "patch", "a stream of the old id was patched: \(event.data.prefix(120))")
            }
        }
        await testApp.stop()
    }
}

/// Tabs under their caps, whichever way a request makes one.
@Suite("Tab caps", .timeLimit(.minutes(1)))
@MainActor
struct TabCapTests {
    @Test("posts naming unknown tabs bring back at most the session's tab limit", arguments: TestApp.Mode.allCases)
    func postsObeyTheSessionCap(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let form = try #require(page.form(withButton: "Increment"))
        let limit = testApp.app.configuration.maxTabsPerSession
        for _ in 0..<(limit * 3) {
            let answer = try await client.post(
                form.action, form: form.posting(["_tab": SecureToken.make(), "_action": "nope"]),
                headers: ["X-Napkin": "1"])
            #expect(answer.status == 404)
        }
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.tabs.count <= limit)
        #expect(testApp.app.store.tabs.count == session.tabs.count)
        await testApp.stop()
    }

    @Test("live navigations naming unknown tabs obey the cap too", arguments: TestApp.Mode.allCases)
    func navigationsObeyTheSessionCap(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        _ = try await client.get("/")
        let limit = testApp.app.configuration.maxTabsPerSession
        for _ in 0..<(limit * 3) {
            _ = try await client.get("/", headers: ["X-Napkin-Tab": SecureToken.make()])
        }
        let id = try #require(await client.sessionID)
        let session = try #require(testApp.app.session(id: id))
        #expect(session.tabs.count <= limit)
        await testApp.stop()
    }

    @Test("past the server-wide cap a new tab releases the least recently used one without a stream")
    func serverWideCap() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(maxTabs: 6))
        let watcher = testApp.client()
        _ = try await watcher.get("/")
        let stream = try await watcher.events()
        _ = try await stream.nextPatch()
        var clients: [TestClient] = []
        for _ in 0..<12 {
            let client = testApp.client()
            _ = try await client.get("/")
            _ = try await client.tab().get("/")
            clients.append(client)
        }
        #expect(testApp.app.store.tabs.count == 6)
        let total = testApp.app.store.all.reduce(0) { $0 + $1.tabs.count }
        #expect(total == 6)
        // The tab with a stream stays.
        let watcherID = try #require(await watcher.sessionID)
        let watched = try #require(testApp.app.session(id: watcherID))
        #expect(watched.tabs.count == 1)
        #expect(watched.streamCount == 1)
        stream.close()
        await testApp.stop()
    }

    @Test("a sign-in posted with a way back too long for a redirect is refused before it runs: the id stays",
          arguments: TestApp.Mode.allCases)
    func oversizedReturnIsRefusedFirst(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let page = try await client.get("/")
        let before = try #require(await client.sessionID)
        let long = "/" + String(repeating: "a", count: 8_000)
        let refused = try await client.submit(page, button: "Sign in", fields: ["_return": long])
        #expect(refused.status == 400)
        #expect(refused.text.contains("return path is too long"))
        #expect(await client.sessionID == before)
        // The same form with its own way back signs in (the client follows the 303).
        #expect(try await client.submit(page, button: "Sign in").status == 200)
        #expect(await client.sessionID != before)
        await testApp.stop()
    }
}
