import Foundation

// The napkin benchmark executable: `swift run -c release NapkinBenchmarks [suite ...]`.
// Suites: core, http, web, ribhouse, ribhouse-live (all of them when none is named). Each prints its own table.

let suites: [(name: String, run: @Sendable () async throws -> Void)] = [
    ("core", CoreBenchmarks.run),
    ("http", HTTPBenchmarks.run),
    ("web", WebBenchmarks.run),
    ("ribhouse", RibHouseBenchmarks.run),
    ("ribhouse-live", LiveUsersBenchmarks.run),
]

let requested = Set(CommandLine.arguments.dropFirst())
let unknown = requested.subtracting(suites.map(\.name))
if !unknown.isEmpty {
    print("unknown suite(s): \(unknown.sorted().joined(separator: ", ")); known: \(suites.map(\.name).joined(separator: ", "))")
    exit(2)
}
for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    try await suite.run()
}
