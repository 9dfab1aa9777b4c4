/// The http suite of the benchmark executable.
enum HTTPBenchmarks {
    static func run() async throws {
        print("http: not written yet")
    }
}
