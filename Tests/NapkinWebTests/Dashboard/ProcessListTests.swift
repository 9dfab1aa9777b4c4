import NapkinStorage
import Testing
@testable import NapkinWeb

@Suite("Dashboard process list", .timeLimit(.minutes(1)))
struct ProcessListTests {
    @Test("the processes on one bus list each other; one that stops leaves the others' lists")
    func joinAndLeave() async throws {
        let bus = LocalBus()
        let first = ProcessList(bus: bus, card: ProcessCard(host: "a", pid: 1, started: 10))
        let second = ProcessList(bus: bus, card: ProcessCard(host: "b", pid: 2, started: 20))
        var seen = await first.presence.present.subscribe().makeAsyncIterator()
        first.launch()
        second.launch()
        while let present = await seen.next(), present.count < 2 {}
        #expect(first.cards.map(\.host) == ["a", "b"])

        await second.stop()
        while let present = await seen.next(), present.count > 1 {}
        #expect(first.cards.map(\.host) == ["a"])
        await first.stop()
    }

    @Test("the overview lists the processes and marks this one")
    @MainActor
    func overview() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let reading = OverviewReading(
            app: testApp.app, handles: SessionHandles(),
            processes: [ProcessCard(host: "elsewhere", pid: 7, started: 0), .current])
        #expect(reading.processes.map(\.isThis) == [false, true])
        #expect(reading.processes.first?.started == "1970-01-01T00:00:00Z")
        await testApp.stop()
    }
}
