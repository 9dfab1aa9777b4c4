#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The metrics an ``HTTPServer`` keeps when its configuration names a
/// registry (``ServerConfiguration/metrics``): connections refused, by
/// reason. Open connections, buffered body bytes and the process's
/// resident memory are sampled gauges, read only when metrics are.
struct ServerMetrics: Sendable {
    /// Connections answered `503` because the server was at its connection limit.
    let refusedFull: Counter
    /// Connections refused because their address was at its own limit.
    let refusedPerAddress: Counter
    /// How late a quarter-second timer runs on a loop's thread.
    let loopLag: Histogram

    init(registry: MetricsRegistry) {
        let help = "Connections refused at a limit, by limit."
        refusedFull = registry.counter("napkin_http_connections_refused_total", help: help, labels: ["reason": "server_full"])
        refusedPerAddress = registry.counter("napkin_http_connections_refused_total", help: help, labels: ["reason": "per_address"])
        loopLag = registry.histogram(
            "napkin_http_loop_lag_seconds", help: "How late a quarter-second timer runs on the server's loop threads.",
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1])
    }

    /// A timer every quarter second on each of `loops`' threads, recording
    /// how late each turn runs it: how long the loop's other work (handlers
    /// run there, libmicrohttpd's reads and writes) keeps a due job waiting.
    func probeLag(of loops: [ServerLoop]) -> [Task<Void, Never>] {
        loops.map { loop in
            Task(executorPreference: loop) { [loopLag] in await loopLag.recordLateness(every: .milliseconds(250)) }
        }
    }

    /// Registers the gauges read from `server` (and the process) in
    /// `registry`. They hold the server weakly, never its core: a weakly
    /// referenced object keeps its reference count in a side table, and
    /// the core is retained and released on every request.
    static func sample(_ server: HTTPServer, in registry: MetricsRegistry) {
        registry.gauge("napkin_http_open_connections", help: "Connections open now, event streams included.") { [weak server] in
            Double(server?.openConnectionCount ?? 0)
        }
        registry.gauge("napkin_http_buffered_body_bytes", help: "Bytes of request bodies held while they arrive.") { [weak server] in
            Double(server?.bufferedBodyBytes ?? 0)
        }
        registry.gauge("process_resident_memory_bytes", help: "Resident memory size in bytes.") {
            Double(ServerMetrics.residentBytes())
        }
    }

    /// The process's resident memory, from `/proc/self/statm` (0 where there is none).
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        // "size resident shared …", in pages.
        let fields = buffer[..<count].split(separator: 0x20)
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
