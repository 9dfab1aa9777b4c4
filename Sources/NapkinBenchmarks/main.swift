import Foundation

// The napkin benchmark executable: `swift run -c release NapkinBenchmarks [suite ...]`.
// Suites: core, http, web, tabs, redis, ribhouse, ribhouse-live, uploads, metrics (all of them when none is named; web includes tabs). Each prints its own table.

let suites: [(name: String, run: @Sendable () async throws -> Void)] = [
    ("core", CoreBenchmarks.run),
    ("http", HTTPBenchmarks.run),
    ("web", WebBenchmarks.run),
    ("tabs", TabBenchmarks.run),
    ("redis", RedisBenchmarks.run),
    ("ribhouse", RibHouseBenchmarks.run),
    ("ribhouse-live", LiveUsersBenchmarks.run),
    ("uploads", UploadBenchmarks.run),
    ("metrics", MetricsBenchmarks.run),
]

// Stopped (Ctrl-C, `timeout`), the benchmark ends the servers it started.
let signalSources = ChildCleanup.install()
let requested = Set(CommandLine.arguments.dropFirst())
let unknown = requested.subtracting(suites.map(\.name))
if !unknown.isEmpty {
    print("unknown suite(s): \(unknown.sorted().joined(separator: ", ")); known: \(suites.map(\.name).joined(separator: ", "))")
    exit(2)
}
// The web suite prints the tab table too, so "all" skips the tabs suite.
for suite in suites where requested.isEmpty ? suite.name != "tabs" : requested.contains(suite.name) {
    try await suite.run()
}
