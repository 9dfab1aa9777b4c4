/// The web suite of the benchmark executable.
enum WebBenchmarks {
    static func run() async throws {
        print("web: not written yet")
    }
}
