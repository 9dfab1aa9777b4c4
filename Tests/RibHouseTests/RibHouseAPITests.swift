import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// The JSON side: the API routes, announcements, and page trees for curl.
@Suite("Rib House JSON and announcements", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseAPITests {
    struct Text: Encodable { let text: String }

    @Test("GET /api/menu: the five foods and the specials", arguments: RibHouseHarness.Mode.allCases)
    func menu(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let client = harness.client()
        let response = try await client.get("/api/menu")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let menu = try response.json(JSONValue.self)
        #expect(menu.members.keys.sorted() == ["foods", "specials"])
        #expect(menu["foods"]?.elements.compactMap(\.stringValue) == User.barbecueFoods)
        #expect(User.barbecueFoods == ["Brisket", "Pulled Pork", "St. Louis Ribs", "Burnt Ends", "Smoked Sausage"])
        let specials = menu["specials"]?.elements ?? []
        #expect(specials.count == SpecialsService.today.count)
        #expect(specials.first?["dish"]?.stringValue == "Burnt-end chili")
        #expect(specials.allSatisfy { $0.members.keys.sorted() == ["dish", "price"] })
        #expect(await client.sessionID == nil, "the API never creates a session")
        await harness.stop()
    }

    @Test("GET /api/pit: the smokers, the round and the headline", arguments: RibHouseHarness.Mode.allCases)
    func pit(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let client = harness.client()
        let opening = try await client.get("/api/pit").json(JSONValue.self)
        #expect(opening.members.keys.sorted() == ["averageTemperature", "headline", "round", "smokers", "updatedAt"])
        #expect(opening["round"] == .number(0))
        #expect(opening["headline"]?.stringValue?.hasPrefix("Pit ") == true)
        let smokers = opening["smokers"]?.elements ?? []
        #expect(!smokers.isEmpty)
        #expect(smokers.contains { $0["name"]?.stringValue == "Old Bess" })
        for smoker in smokers {
            #expect(smoker.members.keys.sorted() == ["item", "minutesLeft", "name", "status", "temperature"])
            #expect(["cooking", "ready"].contains(smoker["status"]?.stringValue ?? ""))
        }
        await harness.tickPit()
        #expect(try await client.get("/api/pit").json(JSONValue.self)["round"] == .number(1))
        #expect(await client.sessionID == nil)
        await harness.stop()
    }

    @Test("page trees as JSON: Launch with Announcements, then LoggedOut or LoggedIn with the Pit Board",
          arguments: RibHouseHarness.Mode.allCases)
    func treeShapes(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()
        let signedOut = try await guest.tree()
        #expect(signedOut.napkinNames == ["LaunchNapkin", "AnnouncementsNapkin", "LoggedOutNapkin"])
        #expect(signedOut.napkin(named: "LaunchNapkin")?["state"]?["toasts"] == .array([]))
        #expect(signedOut.napkin(named: "AnnouncementsNapkin")?["fragment"] == nil, "headless: no fragment")
        #expect(signedOut.napkin(named: "LoggedOutNapkin")?["state"] == nil, "no presenter: nothing of its own to show")
        #expect(signedOut.napkin(named: "LoggedOutNapkin")?["fragment"]?.stringValue?.isEmpty == false)

        _ = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let signedIn = try await guest.tree()
        #expect(signedIn.napkinNames == ["LaunchNapkin", "AnnouncementsNapkin", "LoggedInNapkin"])
        let loggedIn = try #require(signedIn.napkin(named: "LoggedInNapkin"))
        #expect(loggedIn["state"]?["user"]?["name"]?.stringValue == "Ada")
        #expect(loggedIn["state"]?["user"]?["barbecueFoods"]?.elements.compactMap(\.stringValue) == User.barbecueFoods)
        #expect(loggedIn["state"]?["pit"] == nil, "the pit line is shared, not the presenter's")
        // The specials are a shared fragment in LoggedIn's view, not a napkin.
        #expect(try await guest.get("/").text.contains(SpecialsService.today[0].dish))

        let atPit = try await guest.tree(at: "/pit")
        #expect(atPit.napkinNames == ["LaunchNapkin", "AnnouncementsNapkin", "LoggedInNapkin", "PitBoardNapkin"])
        #expect(atPit.napkin(named: "PitBoardNapkin")?["state"]?["round"] == .number(0))
        await harness.stop()
    }

    @Test("an announcement reaches every open stream as a toast; a later session never sees it",
          arguments: RibHouseHarness.Mode.allCases)
    func announcementReachesOpenStreams(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let text = "Last call for burnt ends!"
        var streams: [EventStreamReader] = []
        var guests: [TestClient] = []
        for signedIn in [false, true] {
            let guest = harness.client()
            let page = try await guest.get("/")
            if signedIn { _ = try await guest.submit(page, button: loginButton, fields: ["name": "Ada"]) }
            let stream = try await guest.events()
            _ = try await stream.nextPatch()
            guests.append(guest)
            streams.append(stream)
        }

        let announcer = harness.client()
        let accepted = try await announcer.post("/api/announcements", json: Text(text: "  \(text)  "))
        #expect(accepted.status == 202)
        #expect(try accepted.json(JSONValue.self) == .object(["accepted": .bool(true), "text": .string(text)]))

        for stream in streams {
            let toast = try await stream.nextPatch { @Sendable in $0.html.contains("class=\"toast\"") }
            #expect(toast.html.contains("-toast-1\" role=\"status\"><p>\(text)</p></div>"))
            // The toasts' region alone: not the page root with the screen in its slot.
            #expect(!toast.html.contains("data-napkin=\"LoggedInNapkin\"") && !toast.html.contains("data-napkin=\"LoggedOutNapkin\""))
            #expect(toast.html.utf8.count < 1_500, "\(toast.html.utf8.count) bytes")
            stream.close()
        }
        for guest in guests {
            #expect(try await guest.get("/").text.contains(text))
        }

        let late = harness.client()
        #expect(!(try await late.get("/").text.contains(text)))
        #expect(try await late.tree().napkin(named: "LaunchNapkin")?["state"]?["toasts"] == .array([]))
        await harness.stop()
    }

    @Test("an announcement with markup is escaped in the toast")
    func announcementIsEscaped() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.get("/")
        let stream = try await guest.events()
        _ = try await stream.nextPatch()
        _ = try await harness.client().post("/api/announcements", json: Text(text: "<b>free</b> ribs"))
        let toast = try await stream.nextPatch { @Sendable in $0.html.contains("class=\"toast\"") }
        #expect(toast.html.contains("&lt;b&gt;free&lt;/b&gt; ribs"))
        #expect(!toast.html.contains("<b>"))
        stream.close()
        await harness.stop()
    }

    @Test("announcements and names are bounded in bytes and code points, and need something visible",
          arguments: RibHouseHarness.Mode.allCases)
    func textBombs(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let client = harness.client()
        // 140 letters under 3,700 accents each: 140 characters, a megabyte.
        let buried = String(repeating: "a" + String(repeating: "\u{301}", count: 3_700), count: 140)
        #expect(buried.count == 140)
        let bomb = try await client.post("/api/announcements", json: Text(text: buried))
        #expect(bomb.status == 400 || bomb.status == 413)
        let fewAccents = try await client.post("/api/announcements", json: Text(text: "Cre\u{300}me bru\u{302}le\u{301}e 🧑‍🍳"))
        #expect(fewAccents.status == 202)
        for invisible in ["\u{FEFF}\u{FEFF}", "\u{202E}evil", "\u{E0041}\u{E0042}", "\u{301}\u{301}"] {
            let answer = try await client.post("/api/announcements", json: Text(text: invisible))
            #expect(answer.status == 400, "\(invisible.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(throws: LoginError.self) { try LoginError.validate(name: invisible) }
        }
        #expect(throws: LoginError.self) { try LoginError.validate(name: String(buried.prefix(40))) }
        #expect(try LoginError.validate(name: "Zoë 🔥") == "Zoë 🔥")
        await harness.stop()
    }

    @Test("a client may announce ten at once, then one a second: past it 429 with Retry-After", arguments: RibHouseHarness.Mode.allCases)
    func announcementRate(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let client = harness.client()
        var statuses: [Int] = []
        var retryAfter: String?
        let started = ContinuousClock.now
        for n in 1...30 {
            let answer = try await client.post("/api/announcements", json: Text(text: "Round \(n)"))
            statuses.append(answer.status)
            if answer.status == 429 { retryAfter = answer.headers["Retry-After"] }
        }
        // Each second the burst takes earns one more (a slow machine, a
        // sanitizer): the ten at once, then at most one per second begun.
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
        let accepted = statuses.filter { $0 == 202 }.count
        #expect(Array(statuses.prefix(10)) == Array(repeating: 202, count: 10))
        #expect(accepted <= 10 + seconds, "\(statuses) in \(seconds) s")
        #expect(statuses.filter { $0 == 429 }.count == 30 - accepted, "\(statuses)")
        #expect(accepted < 30, "\(statuses) in \(seconds) s")
        #expect(retryAfter.flatMap(Int.init).map { (1...2).contains($0) } == true)
        await harness.stop()
    }

    @Test("bad announcements: 400 with the reason, 415 for the wrong content type", arguments: RibHouseHarness.Mode.allCases)
    func badAnnouncements(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let client = harness.client()
        let empty = try await client.post("/api/announcements", json: Text(text: "   "))
        #expect(empty.status == 400)
        #expect(empty.text.contains("The announcement is empty."))
        let long = try await client.post("/api/announcements", json: Text(text: String(repeating: "x", count: Announcement.limit + 1)))
        #expect(long.status == 400)
        #expect(long.text.contains("longer than 140 characters"))
        let exact = try await client.post("/api/announcements", json: Text(text: String(repeating: "x", count: Announcement.limit)))
        #expect(exact.status == 202)
        let malformed = try await client.send(.post, "/api/announcements", headers: ["Content-Type": "application/json"], body: Array("{bad".utf8))
        #expect(malformed.status == 400)
        let plain = try await client.send(.post, "/api/announcements", headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
        #expect(plain.status == 415)
        await harness.stop()
    }

    /// Only JSON needs a CORS preflight: a form-encoded, text/plain or
    /// multipart post is one any website can make cross-site.
    @Test("POST /api/announcements takes JSON only: any other content type is 415 and announces nothing",
          arguments: [
              "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8",
              "text/plain", "text/plain;charset=UTF-8", "multipart/form-data; boundary=rib", nil,
          ] as [String?])
    func announcementsTakeJSONOnly(contentType: String?) async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let guest = harness.client()
        _ = try await guest.get("/")
        let stream = try await guest.events()
        _ = try await stream.nextPatch()

        let bodies: [String: String] = [
            "multipart/form-data; boundary=rib":
                "--rib\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nFree ribs\r\n--rib--\r\n",
        ]
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        let body = bodies[contentType ?? ""] ?? "text=Free+ribs"
        let refused = try await harness.client().send(.post, "/api/announcements", headers: headers, body: Array(body.utf8))
        #expect(refused.status == 415)
        #expect(refused.text.contains("application/json"), "says what to send: \(refused.text)")
        #expect(refused.text.count < 100, "a short message")

        // Nothing was announced: the next patch is the JSON announcement below.
        let accepted = try await harness.client().send(
            .post, "/api/announcements", headers: ["Content-Type": "application/json; charset=utf-8"],
            body: Array(#"{"text": "Brisket is up"}"#.utf8))
        #expect(accepted.status == 202)
        let toast = try await stream.nextPatch { @Sendable in $0.html.contains("class=\"toast\"") }
        #expect(toast.html.contains("Brisket is up"))
        #expect(!toast.html.contains("Free ribs"))
        stream.close()
        await harness.stop()
    }

    @Test("a refused announcement answers the rule it broke, in a sentence, as plain text")
    func refusalsAreShortSentences() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let client = harness.client()
        let empty = try await client.post("/api/announcements", json: Text(text: " \n "))
        #expect(empty.status == 400)
        #expect(empty.text == "The announcement is empty.")
        #expect(empty.headers["Content-Type"]?.hasPrefix("text/plain") == true)
        let long = try await client.post("/api/announcements", json: Text(text: String(repeating: "🔥", count: Announcement.limit + 1)))
        #expect(long.status == 400)
        #expect(long.text == "The announcement is longer than \(Announcement.limit) characters.")
        let wrongType = try await client.send(
            .post, "/api/announcements", headers: ["Content-Type": "application/json"], body: Array(#"{"text": 7}"#.utf8))
        #expect(wrongType.status == 400)
        #expect(!wrongType.text.contains("Swift"), "no Swift error description: \(wrongType.text)")
        #expect(!wrongType.text.contains("context"), "no Swift error description: \(wrongType.text)")
        #expect(wrongType.text.count < 100)
        await harness.stop()
    }
}

@Suite("Rib House services", .timeLimit(.minutes(1)))
struct RibHouseServiceTests {
    @Test func namesAreTrimmedAndBounded() throws {
        #expect(try LoginError.validate(name: "  Ada \n") == "Ada")
        #expect(try LoginError.validate(name: String(repeating: "é", count: 40)).count == 40)
        #expect(throws: LoginError.emptyName) { try LoginError.validate(name: " \t ") }
        #expect(throws: LoginError.nameTooLong(limit: 40)) { try LoginError.validate(name: String(repeating: "x", count: 41)) }
        #expect(throws: LoginError.invisibleCharacters) { try LoginError.validate(name: "A\u{7}da") }
    }

    @Test func pitStaysInRangeAndMoves() {
        var simulator = PitSimulator(seed: 42)
        var pit = PitSimulator.opening()
        for round in 1...200 {
            pit = simulator.tick(pit)
            #expect(pit.round == round)
            #expect(pit.smokers.allSatisfy { PitSimulator.temperatureRange.contains($0.temperature) })
        }
        #expect(pit.headline.hasPrefix("Pit "))
    }

    @Test("the pit's loop ticks once started, once however often started, and stops")
    func pitServiceTicksOnceStartedAndStops() async throws {
        let pit = PitService(interval: .milliseconds(20))
        let updates = await pit.stateStream()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.round == 0)
        await pit.start()
        await pit.start()
        #expect(await iterator.next()?.round == 1)
        #expect(await iterator.next()?.round == 2, "one loop: rounds go up by one")
        await pit.stop()
        #expect(await pit.subscriberCount == 1)
        // Stopped means no loop is left, not even one a second start made:
        // over ten intervals the round stays put. (Nothing signals that
        // nothing happens, so this one waits.)
        let stoppedAt = await pit.current.round
        try await Task.sleep(for: .milliseconds(200))
        #expect(await pit.current.round == stoppedAt, "a loop still ticks after stop()")
    }

    @Test("GET /api/pit sends the bytes JSONEncoder gives for the pit now, re-encoded on every tick")
    func pitJSONIsEncodedOncePerTick() async throws {
        func encoded(_ state: PitState) throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return Array(try encoder.encode(state))
        }
        /// The same JSON value as a plain `JSONEncoder` gives, whatever its key order.
        func sameValue(_ bytes: [UInt8], _ state: PitState) throws -> Bool {
            try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
                == JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(state))
        }
        let pit = PitService()
        #expect(pit.json.bytes == (try encoded(await pit.current)))
        #expect(try sameValue(pit.json.bytes, await pit.current))
        for _ in 0..<5 {
            let before = pit.json.bytes
            await pit.tick()
            #expect(pit.json.bytes == (try encoded(await pit.current)))
            #expect(try sameValue(pit.json.bytes, await pit.current))
            #expect(pit.json.bytes != before, "each tick changes the round, so the bytes")
        }
        for mode in RibHouseHarness.Mode.allCases {
            let harness = try await RibHouseHarness.start(mode, ticking: false)
            await harness.ribHouse.pitService.tick()
            let response = try await harness.client().get("/api/pit")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            #expect(response.body == (try encoded(await harness.ribHouse.pitService.current)))
            await harness.stop()
        }
    }
}
