/// The core suite of the benchmark executable.
enum CoreBenchmarks {
    static func run() async throws {
        print("core: not written yet")
    }
}
