import NapkinHTTP
import NapkinStorage
import Testing
@testable import RibHouse

@Suite(.timeLimit(.minutes(1))) struct RibHouseMetricsTests {
    @Test("the pit's lease shows as held once this process takes it, and as not held once it lets go")
    func leaseHeld() async throws {
        let registry = MetricsRegistry()
        let leases = LocalLeases()
        let pit = PitService(interval: .seconds(3600), leases: leases)
        RibHouseMetrics.register(in: registry, pit: pit, diners: Presence<Diner>(topic: "diners"))
        let held = { registry.currentSnapshot().value("napkin_lease_held", ["lease": "pit"]) }
        #expect(held() == 0)
        await pit.start()
        // The lease is taken by the loop's task: look until it has (bounded).
        for _ in 0..<500 where held() != 1 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(held() == 1)
        #expect(try await leases.holder(of: "pit") != nil)
        await pit.stop()
        #expect(held() == 0)
    }

    @Test("the diners' presence entries follow a diner's tracking, and the app registers them when it keeps metrics")
    @MainActor func presenceEntries() async throws {
        let registry = MetricsRegistry()
        let diners = Presence<Diner>(topic: "diners")
        RibHouseMetrics.register(in: registry, pit: PitService(), diners: diners)
        let entries = { registry.currentSnapshot().value("napkin_presence_entries", ["topic": "diners"]) }
        #expect(entries() == 0)
        let tracking = try #require(await diners.track("Ann", Diner(name: "Ann")))
        #expect(entries() == 1)
        tracking.end()
        #expect(entries() == 0)
        let appRegistry = MetricsRegistry()
        var configuration = RibHouseApp.configuration
        configuration.metrics = appRegistry
        _ = RibHouseApp.make(configuration: configuration)
        #expect(appRegistry.currentSnapshot().value("napkin_presence_entries", ["topic": "diners"]) == 0)
    }
}
