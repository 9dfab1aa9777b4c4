import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import NapkinTesting
import NapkinWeb
import Testing
import napkin
@testable import RibHouse

/// Sessions outlive the process that served them: two Rib House instances
/// sharing one session store stand for a restart (or a second process).
@Suite("Rib House durable sessions", .timeLimit(.minutes(1)))
@MainActor
struct RibHouseDurableSessionTests {
    /// A Rib House whose sessions live in `records`.
    static func house(_ records: any SessionRecordStore) -> RibHouseApp {
        var configuration = RibHouseHarness.configuration
        configuration.sessionRecords = records
        return RibHouseApp.make(configuration: configuration, pitInterval: RibHouseHarness.pitInterval)
    }

    /// A browser of `house` holding `cookie`.
    static func browser(of house: RibHouseApp, cookie: String) async -> TestClient {
        let client = TestClient(inProcess: house.router)
        await client.setCookie("napkin_session", cookie)
        return client
    }

    @Test("another process rebuilds the session from its record: still signed in, and the old page's forms still post")
    func sessionMovesToAnotherProcess() async throws {
        let records = InMemorySessionRecords()
        let first = Self.house(records)
        let guest = TestClient(inProcess: first.router)
        let menu = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        #expect(menu.text.contains("Ada"))
        let id = try #require(await guest.sessionID)
        await first.shutdown()

        let second = Self.house(records)
        let moved = await Self.browser(of: second, cookie: id)
        let page = try await moved.get("/pit")
        #expect(page.text.contains("<span class=\"name\">Ada</span>"))
        #expect(page.text.contains("data-napkin=\"PitBoardNapkin\""))
        #expect(page.form(withButton: "Logout")?.value(of: "_csrf") == menu.form(withButton: "Logout")?.value(of: "_csrf"))

        // The form the first process rendered posts to the second.
        let fresh = await Self.browser(of: second, cookie: id)
        let signedOut = try await fresh.submit(menu, button: "Logout")
        #expect(signedOut.text.contains(loginButton))
        let newID = try #require(await fresh.sessionID)
        #expect(newID != id)
        #expect(try await records.load(id: id) == nil, "the id before the rotation still has a record")
        #expect(try await records.load(id: newID)?.values["user"] == nil)
        await second.shutdown()
    }

    @Test("login writes who is signed in to the record before it answers, under the new id only")
    func loginIsDurableBeforeTheResponse() async throws {
        let records = InMemorySessionRecords()
        let house = Self.house(records)
        let guest = TestClient(inProcess: house.router)
        let welcome = try await guest.get("/")
        let planted = try #require(await guest.sessionID)
        #expect(try await records.load(id: planted) != nil)
        _ = try await guest.submit(welcome, button: loginButton, fields: ["name": "Ada"], javascript: true)
        let id = try #require(await guest.sessionID)
        #expect(id != planted)
        #expect(try await records.load(id: planted) == nil)
        let user = try #require(try await records.load(id: id)?.values["user"])
        #expect(user.contains("\"Ada\""))
        await house.shutdown()
    }

    @Test("a session store that cannot be reached answers 503 with a clear message; service returns with the store")
    func storeOutage() async throws {
        let records = SwitchableRecords()
        let house = Self.house(records)
        let guest = TestClient(inProcess: house.router)
        let welcome = try await guest.get("/")
        let id = try #require(await guest.sessionID)
        await house.shutdown()

        let second = Self.house(records)
        let moved = await Self.browser(of: second, cookie: id)
        records.isDown = true
        let refused = try await moved.get("/")
        #expect(refused.status == 503)
        #expect(refused.text.contains("Sessions are unavailable right now"))
        #expect(!refused.text.contains("Error"), "the store's own error leaked")
        let newcomer = try await TestClient(inProcess: second.router).get("/")
        #expect(newcomer.status == 503)
        records.isDown = false
        let back = try await moved.get("/")
        #expect(back.status == 200)
        #expect(back.form(withButton: loginButton)?.value(of: "_csrf") == welcome.form(withButton: loginButton)?.value(of: "_csrf"))
        await second.shutdown()
    }

    @Test("a login whose value the store cannot save answers 503 with the same clear message, and nobody is signed in")
    func loginWhileTheStoreRefusesWrites() async throws {
        let records = SwitchableRecords()
        let house = Self.house(records)
        let guest = TestClient(inProcess: house.router)
        let welcome = try await guest.get("/")
        let id = try #require(await guest.sessionID)
        records.refusesSaves = true
        let refused = try await guest.submit(welcome, button: loginButton, fields: ["name": "Ada"], javascript: true)
        #expect(refused.status == 503)
        #expect(refused.text.contains("Sessions are unavailable right now"))
        #expect(!refused.text.contains("Unreachable"), "the store's own error leaked")
        records.refusesSaves = false
        #expect(try await records.load(id: id)?.values["user"] == nil)
        #expect(try await guest.get("/").text.contains(loginButton))
        await house.shutdown()
    }
}

/// A session store that can be switched off, as a store whose server went away.
final class SwitchableRecords: SessionRecordStore {
    private let records = InMemorySessionRecords()
    private let down = Locked(false)
    private let savesRefused = Locked(false)

    var isDown: Bool {
        get { down.withLock { $0 } }
        set { down.withLock { $0 = newValue } }
    }

    /// Whether saves fail while everything else works: a store that went
    /// read-only.
    var refusesSaves: Bool {
        get { savesRefused.withLock { $0 } }
        set { savesRefused.withLock { $0 = newValue } }
    }

    struct Unreachable: Error {}

    private func check() throws {
        if isDown { throw Unreachable() }
    }

    func load(id: String) async throws -> SessionRecord? {
        try check()
        return try await records.load(id: id)
    }

    func save(_ record: SessionRecord, ttl: Duration) async throws {
        try check()
        if refusesSaves { throw Unreachable() }
        try await records.save(record, ttl: ttl)
    }

    func touch(id: String, ttl: Duration) async throws {
        try check()
        try await records.touch(id: id, ttl: ttl)
    }

    func delete(id: String) async throws {
        try check()
        try await records.delete(id: id)
    }
}
