import Foundation
import NapkinHTTP

/// The metrics suite: what keeping metrics costs Rib House, and how long a
/// scrape takes while it holds many live users.
///
/// The cost is measured as the access log's is: fresh pairs of release
/// Rib House servers, one keeping metrics (`--metrics-port`) and one not,
/// loaded at the same moment (servers on core 0, two `wrk -t1 -c50` on
/// core 1), CPU per request of one over the other, for a page and for
/// `/api/pit`; a control pair with metrics off in both shows the method's
/// spread. The scrape is timed against a server holding N live users
/// (Floor/liveusers.c, as ribhouse-live signs them in).
enum MetricsBenchmarks {
    static let pairs = 3
    static let rounds = 5
    static let seconds = 2

    static func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset"), HTTPBenchmarks.hasWrk() else {
            print("metrics: taskset and wrk are needed (scripts/setup --bench)"); return
        }
        guard let binary = RibHouseBenchmarks.ribHouseBinary() else {
            print("metrics: no release RibHouse binary: run `swift build -c release --product RibHouse` first"); exit(1)
        }
        let work = NSTemporaryDirectory() + "napkin-metrics-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let (off, on) = inProcess()
        var direct = Table(
            "Metrics in process: HTTPRouter.answer for GET /api/pit through an access log and error mapping, best of 7 alternating rounds × 200,000 requests, one thread",
            columns: ["case", "ns per request", "added by metrics"])
        direct.add("metrics off", fmt(off, 0), "")
        direct.add("metrics on (router.measure(in:))", fmt(on, 0), fmt(on - off, 0) + " ns")
        direct.print()

        var table = Table(
            "Rib House metrics: CPU per request, metrics on (--metrics-port) over off, both loaded at the same moment (servers on core 0, two wrk -t1 -c50 on core 1), \(pairs) fresh pairs × \(rounds) rounds × \(seconds) s",
            columns: ["path", "cost (median of rounds)", "rounds, lowest to highest", "control: off vs off (median)", "target", "result"])
        for path in ["/", "/api/pit"] {
            let cost = try ratios(binary, work: work, path: path, measured: ["--metrics-port", "0"])
            let control = try ratios(binary, work: work, path: path, measured: [])
            let median = cost[cost.count / 2] - 1
            table.add(
                path == "/" ? "page /" : path, fmt(median * 100) + " %", cost.map { fmt(($0 - 1) * 100) }.joined(separator: ", ") + " %",
                fmt((control[control.count / 2] - 1) * 100) + " %", "≤ 3 %", median <= 0.03 ? "pass" : "MISS")
        }
        table.print()

        let count = Int(ProcessInfo.processInfo.environment["NAPKIN_LIVE_USERS"]?.split(separator: ",").last ?? "10000") ?? 10_000
        try HTTPBenchmarks.compile("liveusers.c", to: work + "/liveusers", libraries: ["-pthread"])
        let scrapes = try scrapeWhileHolding(count, binary: binary, work: work)
        var scrapeTable = Table(
            "Rib House /metrics scrape while holding N live users (server on core 0, clients on core 1; 20 scrapes on the loopback metrics listener)",
            columns: ["measure", "value", "target", "result"])
        scrapeTable.add("live users held", String(scrapes.held), "\(count)", scrapes.held >= count * 99 / 100 ? "pass" : "MISS")
        scrapeTable.add("scrape time (median)", fmt(scrapes.median) + " ms", "< 50 ms", scrapes.median < 50 ? "pass" : "MISS")
        scrapeTable.add("scrape time (slowest)", fmt(scrapes.slowest) + " ms", "", "")
        scrapeTable.add("scrape size", "\(scrapes.bytes) B", "", "")
        scrapeTable.print()
        fflush(nil)
    }

    /// Nanoseconds per request of a router answering `/api/pit` at once,
    /// without and with request metrics: the metrics' own cost, free of
    /// sockets and of other work on the machine.
    static func inProcess() -> (off: Double, on: Double) {
        func router(measured: Bool) -> HTTPRouter {
            var router = HTTPRouter()
            if measured { router.measure(in: MetricsRegistry()) }
            router.use(AccessLog(sink: { _ in }))
            router.use(ErrorMiddleware())
            let body: [UInt8] = Array(#"{"pit":"hot"}"#.utf8)
            router.get("/api/menu") { _ in Response(body: .bytes(body)) }
            router.get("/api/specials/:id") { _ in Response(body: .bytes(body)) }
            router.get("/api/pit") { _ in Response(body: .bytes(body)) }
            return router
        }
        let routers = [router(measured: false), router(measured: true)]
        let count = 200_000
        var best = [Double.infinity, .infinity]
        var bytes = 0
        for _ in 0..<7 {
            for (index, router) in routers.enumerated() {
                let start = ContinuousClock.now
                for _ in 0..<count {
                    // A request made per answer, as the server makes one: its arrival is read then.
                    let request = Request(method: .get, target: "/api/pit")
                    if case .immediate(.success(let response)) = router.answer(request) { bytes &+= response.status.code }
                }
                let (seconds, attoseconds) = (ContinuousClock.now - start).components
                best[index] = min(best[index], (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count))
            }
        }
        precondition(bytes != 0)
        return (best[0], best[1])
    }

    /// CPU per request of a server started with `measured` over one with
    /// metrics off, at the same moment, over fresh pairs; sorted.
    static func ratios(_ binary: String, work: String, path: String, measured: [String]) throws -> [Double] {
        var ratios: [Double] = []
        for pair in 0..<pairs {
            let starts = [[String](), measured]
            let servers = try (pair % 2 == 0 ? starts : starts.reversed()).enumerated().map { index, flags in
                try RibHouseBenchmarks.startRibHouse(binary, log: work + "/metrics-\(pair)-\(index).log", extra: flags)
            }
            defer { servers.forEach { $0.stop() } }
            let (off, on) = pair % 2 == 0 ? (servers[0], servers[1]) : (servers[1], servers[0])
            for server in servers { _ = try RibHouseBenchmarks.wrk(port: server.port, path: path, seconds: 1) }
            ratios += try RibHouseBenchmarks.sameMoment(on, off, path: path, rounds: rounds, seconds: seconds)
        }
        return ratios.sorted()
    }

    /// Signs in `count` users holding streams on one server keeping metrics,
    /// then times 20 scrapes of its metrics listener.
    static func scrapeWhileHolding(_ count: Int, binary: String, work: String) throws -> (held: Int, median: Double, slowest: Double, bytes: Int) {
        let metricsPort = freePort()
        let server = try RibHouseBenchmarks.startRibHouse(binary, log: work + "/live.log", extra: ["--metrics-port", String(metricsPort)])
        defer { server.stop() }
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        client.arguments = ["-c", "1", work + "/liveusers", String(server.port), String(count), "60", LiveUsersBenchmarks.presenceMarker]
        let out = Pipe()
        client.standardOutput = out
        try client.run()
        defer {
            client.terminate()
            client.waitUntilExit()
        }
        HTTPBenchmarks.progress("metrics: signing in \(count) users on :\(server.port)")
        let ready = (HTTPBenchmarks.readLine(out.fileHandleForReading) ?? "ready 0").split(separator: " ")
        let held = ready.count > 1 ? Int(ready[1]) ?? 0 : 0
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<20 {
            let (ms, size) = scrape(port: metricsPort)
            times.append(ms)
            bytes = size
        }
        times.sort()
        return (held, times[times.count / 2], times.last ?? 0, bytes)
    }

    /// A free loopback port (the kernel's pick, released at once).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// One `GET /metrics` on a fresh connection, read to its end: milliseconds and bytes.
    static func scrape(port: Int) -> (Double, Int) {
        let start = ContinuousClock.now
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        guard connected else { return (.nan, 0) }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            total += n
        }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return (Double(seconds) * 1000 + Double(attoseconds) / 1e15, total)
    }
}
