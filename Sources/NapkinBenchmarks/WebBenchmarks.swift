import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import napkin

/// The web suite: what a napkin session costs — a full page, an idle
/// session's memory, and one shared change patched into 10,000 live tabs.
enum WebBenchmarks {
    static func run() async throws {
        print("\n## Web (NapkinWeb)")
        try await sessionMemory().print()
        try await fanOut().print()
    }

    static func verdict(_ pass: Bool) -> String { pass ? "pass" : "MISS" }

    // MARK: - Memory per idle session

    @MainActor
    static func sessionMemory(sessions: Int = 10_000) async throws -> Table {
        var table = Table(
            "Memory per idle session (4-napkin tree, in-process, \(sessions) sessions)",
            columns: ["measure", "value", "target", "result"])
        let (app, router, _) = BenchApp.make()
        // Warm up code paths and caches before the baseline.
        _ = try await TestClient(inProcess: router).get("/")
        await app.shutdown()
        trimHeap()
        let before = residentBytes()
        let clock = ContinuousClock()
        let start = clock.now
        var clients: [TestClient] = []
        clients.reserveCapacity(sessions)
        for _ in 0..<sessions {
            let client = TestClient(inProcess: router)
            _ = try await client.get("/")
            clients.append(client)
        }
        let elapsed = clock.now - start
        trimHeap()
        let after = residentBytes()
        precondition(app.sessionCount == sessions, "sessions were lost")
        let perSession = Double(after - before) / Double(sessions)
        table.add("resident memory per session (KiB)", fmt(perSession / 1024, 2), "<= 16", verdict(perSession <= 16 * 1024))
        table.add("first page, session created (us)", fmt(elapsed.seconds / Double(sessions) * 1e6, 1), "-", "info")
        clients.removeAll()
        await app.shutdown()
        return table
    }

    // MARK: - One shared change into 10,000 tabs

    @MainActor
    static func fanOut(sessions: Int = 10_000, rounds: Int = 3) async throws -> Table {
        var table = Table(
            "One app-wide change patched into \(sessions) sessions, each with an open event stream (in-process)",
            columns: ["round", "p50 (ms)", "p99 (ms)", "max (ms)", "target p99", "result"])
        let (app, router, component) = BenchApp.make()
        var readers: [EventStreamReader] = []
        readers.reserveCapacity(sessions)
        for _ in 0..<sessions {
            let client = TestClient(inProcess: router)
            _ = try await client.get("/")
            let reader = try await client.events()
            _ = try await reader.nextPatch()
            readers.append(reader)
        }
        for round in 1...rounds {
            let marker = "Reading: \(round * 7)°F"
            let clock = ContinuousClock()
            let start = clock.now
            let latencies = try await withThrowingTaskGroup(of: Double.self) { group in
                for reader in readers {
                    group.addTask {
                        // Raw events: the browser, not the server, would decode the JSON.
                        while try await !reader.next(timeout: .seconds(60)).data.contains(marker) {}
                        return (clock.now - start).seconds * 1000
                    }
                }
                await component.ticker.send(round * 7)
                var latencies: [Double] = []
                for try await latency in group { latencies.append(latency) }
                return latencies
            }
            let p99 = percentile(latencies, 99)
            table.add("\(round)", fmt(percentile(latencies, 50), 1), fmt(p99, 1), fmt(latencies.max() ?? 0, 1), "<= 1000", verdict(p99 <= 1000))
        }
        for reader in readers { reader.close() }
        await app.shutdown()
        return table
    }
}
