import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
import napkin
@testable import RibHouse

/// "In the house now": the signed-in diners with a tab open, live, on every
/// process; a JSON request is no diner.
@Suite("Rib House: in the house now", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseInTheHouseTests {
    /// The "In the house now" list in `html`, as the names it shows.
    static func diners(in html: String) -> [String]? {
        guard let start = html.range(of: "In the house now</h2><ul>"), let end = html[start.upperBound...].range(of: "</ul>") else { return nil }
        return html[start.upperBound..<end.lowerBound]
            .components(separatedBy: "</li>").compactMap { $0.hasPrefix("<li>") ? String($0.dropFirst(4)) : nil }
    }

    /// `presence`'s changes from now on, read as they come: a subscriber
    /// that only reads after the request it waits for would hold up that
    /// request's settlement (which waits for every subscriber).
    static func record(_ presence: Presence<Diner>) async -> AsyncStream<PresenceChange<Diner>> {
        let subscription = await presence.changes.subscribe()
        let (stream, continuation) = AsyncStream.makeStream(of: PresenceChange<Diner>.self)
        let forwarding = Task {
            for await change in subscription { continuation.yield(change) }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }

    @Test("a diner who signs in shows on the other diners' pages, live, and leaves them on signing out")
    func joinsAndLeavesLive() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let ada = harness.client()
        let adaMenu = try await ada.submit(try await ada.get("/"), button: loginButton, fields: ["name": "Ada"])
        #expect(Self.diners(in: adaMenu.text) == ["Ada"])
        let adaStream = try await ada.events()
        _ = try await adaStream.nextPatch()   // the whole page first

        let bo = harness.client()
        let boMenu = try await bo.submit(try await bo.get("/"), button: loginButton, fields: ["name": "Bo"])
        // The list changes at most twice a second: Bo's own page may
        // come before Bo is on it, and the patch follows.
        #expect(Self.diners(in: boMenu.text)?.contains("Ada") == true)
        _ = try await adaStream.nextPatch { Self.diners(in: $0.html) == ["Ada", "Bo"] }

        _ = try await bo.submit(boMenu, button: "Logout")
        _ = try await adaStream.nextPatch { Self.diners(in: $0.html) == ["Ada"] }
        adaStream.close()
        await harness.stop()
    }

    @Test("two tabs of one diner are one entry, which leaves when the diner's last tab resigns")
    func twoTabsOneDiner() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let diners = harness.ribHouse.component.diners
        var changes = await Self.record(diners).makeAsyncIterator()
        let first = harness.client()
        let menu = try await first.submit(try await first.get("/"), button: loginButton, fields: ["name": "Ada"])
        let second = await first.tab()
        let again = try await second.get("/")
        #expect(Self.diners(in: again.text) == ["Ada"])
        #expect(await changes.next() == .joined("Ada", Diner(name: "Ada")))
        #expect(diners.current == ["Ada": Diner(name: "Ada")])
        // Signing out in one tab signs both out: both LoggedIn napkins
        // resign, and Ada leaves once.
        _ = try await first.submit(menu, button: "Logout")
        #expect(await changes.next() == .left("Ada"))
        #expect(diners.current.isEmpty)
        await harness.stop()
    }

    @Test("a signed-in JSON request that names no tab is no visit: no join, no leave")
    func jsonIsNotAVisit() async throws {
        let records = InMemorySessionRecords()
        let first = RibHouseDurableSessionTests.house(records)
        let guest = TestClient(inProcess: first.router)
        _ = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let id = try #require(await guest.sessionID)

        // Another process, where Ada has no tab: a program reads her page.
        let second = RibHouseDurableSessionTests.house(records)
        await second.followServices()
        var changes = await Self.record(second.component.diners).makeAsyncIterator()
        let program = await RibHouseDurableSessionTests.browser(of: second, cookie: id)
        let tree = try await program.tree(at: "/")
        #expect(tree.napkinNames.contains("LoggedInNapkin"), "the JSON is of Ada's signed-in tree")
        let answer = try await program.get("/pit", headers: ["Accept": "application/json"])
        #expect(answer.status == 200)

        // The next change the second process sees is Bo's sign-in there.
        let bo = TestClient(inProcess: second.router)
        let boMenu = try await bo.submit(try await bo.get("/"), button: loginButton, fields: ["name": "Bo"])
        #expect(await changes.next() == .joined("Bo", Diner(name: "Bo")))
        #expect(Self.diners(in: boMenu.text) == ["Bo"])
        await first.shutdown()
        await second.shutdown()
    }

    @Test("a full house names the first diners and counts the rest")
    func fullHouse() async throws {
        let ribHouse = RibHouseApp.make(publicDirectory: nil)
        let shown = AppComponent.inTheHouseShown
        let names = (0..<shown + 3).map { String(format: "Guest %02d", $0) }
        ribHouse.component.inTheHouse.update(Dictionary(uniqueKeysWithValues: names.map { ($0, Diner(name: $0)) }))
        let html = ribHouse.component.inTheHouse.html.description
        #expect(Self.diners(in: html) == Array(names.prefix(shown)))
        #expect(html.contains("<p>and 3 more</p>"))
        await ribHouse.shutdown()
    }

    @Test("two processes on one bus show each other's diners")
    func acrossProcesses() async throws {
        let bus = LocalBus()
        let leases = LocalLeases()
        let one = RibHouseApp.make(
            configuration: RibHouseHarness.configuration, pitInterval: RibHouseHarness.pitInterval, bus: bus, leases: leases)
        let two = RibHouseApp.make(
            configuration: RibHouseHarness.configuration, pitInterval: RibHouseHarness.pitInterval, bus: bus, leases: leases)
        await one.start()
        await two.start()
        let bo = TestClient(inProcess: two.router)
        _ = try await bo.submit(try await bo.get("/"), button: loginButton, fields: ["name": "Bo"])
        let boStream = try await bo.events()
        _ = try await boStream.nextPatch()

        let ada = TestClient(inProcess: one.router)
        let adaMenu = try await ada.submit(try await ada.get("/"), button: loginButton, fields: ["name": "Ada"])
        _ = try await boStream.nextPatch { Self.diners(in: $0.html) == ["Ada", "Bo"] }
        _ = try await ada.submit(adaMenu, button: "Logout")
        _ = try await boStream.nextPatch { Self.diners(in: $0.html) == ["Bo"] }
        boStream.close()
        await one.shutdown()
        await two.shutdown()
    }
}
