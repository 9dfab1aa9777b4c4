import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

@Suite("Eviction", .timeLimit(.minutes(1)))
@MainActor
struct EvictionTests {
    @Test("evicting a session deactivates its tree, cancels its tasks and releases every napkin")
    func evictionReleasesTree() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        _ = try await client.get("/detail")
        let id = try #require(await client.sessionID)
        let probe = testApp.component.probe
        #expect(probe.trackedObjects == 8)
        #expect(await testApp.component.counter.values.subscriberCount == 2)

        try await testApp.app.evict(sessionID: id)
        try await probe.waitForTasks()
        #expect(testApp.app.sessionCount == 0)
        #expect(probe.liveObjects == 0)
        #expect(await testApp.component.counter.values.subscriberCount == 0)

        let next = try await client.get("/")
        #expect(next.headers["Set-Cookie"] != nil)
        await testApp.stop()
    }

    @Test("idle sessions are evicted after the configured time")
    func idleEviction() async throws {
        let testApp = try await TestApp.start(
            .inProcess, configuration: NapkinConfiguration(sessionIdleTimeout: .seconds(60), idleSweepInterval: .seconds(3600)))
        _ = try await testApp.client().get("/")
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 1)
        testApp.app.advanceSessionClock(by: .seconds(61))
        await testApp.app.evictIdleSessions()
        try await testApp.component.probe.waitForTasks()
        #expect(testApp.app.sessionCount == 0)
        #expect(testApp.component.probe.liveObjects == 0)
        await testApp.stop()
    }

    @Test("a session with an open tab is not idle, however long ago its last request was")
    func openTabKeepsSession() async throws {
        let testApp = try await TestApp.start(
            .inProcess, configuration: NapkinConfiguration(sessionIdleTimeout: .seconds(60), idleSweepInterval: .seconds(3600)))
        let client = testApp.client()
        let quiet = testApp.client()
        _ = try await client.get("/")
        _ = try await quiet.get("/")
        let stream = try await client.events()
        #expect(stream.status == 200)
        testApp.app.advanceSessionClock(by: .seconds(120))
        await testApp.app.evictIdleSessions()
        #expect(testApp.app.sessionCount == 1)
        #expect(testApp.app.session(id: try #require(await client.sessionID)) != nil)
        stream.close()
        await testApp.stop()
    }

    @Test("the session cap evicts the least recently used session")
    func capEvictsLeastRecentlyUsed() async throws {
        let testApp = try await TestApp.start(.inProcess, configuration: NapkinConfiguration(maxSessions: 2))
        let first = testApp.client()
        let second = testApp.client()
        let third = testApp.client()
        _ = try await first.get("/")
        _ = try await second.get("/")
        _ = try await first.get("/")  // first is now more recent than second
        _ = try await third.get("/")
        #expect(testApp.app.sessionCount == 2)
        #expect(testApp.app.session(id: try #require(await second.sessionID)) == nil)
        #expect(testApp.app.session(id: try #require(await first.sessionID)) != nil)
        await testApp.stop()
    }
}
