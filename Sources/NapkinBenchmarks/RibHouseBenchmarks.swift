import Foundation

/// The ribhouse suite: the real release `RibHouse` binary, as shipped, against
/// the C libmicrohttpd floor built beside it in the same run. Each server is
/// pinned to core 0 and `wrk -t1 -c50` to core 1 (`taskset`); cases alternate
/// round by round, and each keeps its best round (other work on a shared box
/// only ever lowers a figure) and its median ratio to C across rounds.
enum RibHouseBenchmarks {
    static let rounds = 5
    /// The access log's same-moment comparison: fresh pairs of servers, and
    /// rounds per pair (its cost is a few percent, less than one server
    /// process differs from another started the same way).
    static let logPairs = 3
    static let logRounds = 5
    static let seconds = 2
    /// The static file measured: the smallest file Rib House ships in `Public/`.
    static let staticPath = "/favicon.svg"

    static var packageRoot: String {
        // This file is Sources/NapkinBenchmarks/RibHouseBenchmarks.swift.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    /// `.build/release/RibHouse`: beside this executable when it was built
    /// with `-c release`, else under the package.
    static func ribHouseBinary() -> String? {
        var candidates: [String] = []
        if let me = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let beside = me.deletingLastPathComponent().appendingPathComponent("RibHouse").path
            if beside.contains("/release/") { candidates.append(beside) }
        }
        candidates.append(packageRoot + "/.build/release/RibHouse")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A running server: its process and the port it bound.
    struct Server {
        let process: Process
        let port: Int
        var pid: Int32 { process.processIdentifier }
        /// SIGTERM (a clean shutdown) for Rib House; SIGKILL for the C floor.
        func stop(_ signal: Int32 = SIGTERM) {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
        }
    }

    static func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else {
            print("ribhouse: taskset (util-linux) is needed to pin the servers and wrk to cores"); return
        }
        guard HTTPBenchmarks.hasWrk() else {
            print("ribhouse: wrk is not installed (scripts/setup --bench)"); return
        }
        guard let binary = ribHouseBinary() else {
            print("ribhouse: no release RibHouse binary: run `swift build -c release --product RibHouse` first "
                  + "(looked beside this executable and in \(packageRoot)/.build/release/)")
            exit(1)
        }
        let publicDirectory = packageRoot + "/Public"
        let asset = publicDirectory + staticPath
        guard let size = (try? FileManager.default.attributesOfItem(atPath: asset))?[.size] as? Int else {
            print("ribhouse: \(asset) is missing"); exit(1)
        }
        let work = NSTemporaryDirectory() + "napkin-ribhouse-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try HTTPBenchmarks.compile("hello.c", to: work + "/hello", libraries: ["-lmicrohttpd"])

        // The C floor: one thread on core 0, serving the same file from disk.
        let floor = try start(["/usr/bin/taskset", "-c", "0", work + "/hello", "1", String(HTTPBenchmarks.memoryLimit), asset],
                              log: nil, portLine: { Int($0) })
        defer { floor.stop(SIGKILL) }
        // Rib House as shipped (default configuration, access log to a file,
        // as a service's stderr would be).
        let rib = try startRibHouse(binary, log: work + "/access.log")
        defer { rib.stop() }

        for (port, path) in [(floor.port, "/"), (rib.port, staticPath), (rib.port, "/api/pit")] {
            _ = try wrk(port: port, path: path, seconds: 1)
        }

        /// Every case once per round, back to back: the best round of each
        /// case, and each round's ratio to the first case (the median of
        /// those is steadier than best/best when other work comes and goes).
        func sideBySide(_ cases: [(Server, String)]) throws -> (best: [HTTPBenchmarks.Run], medianRatio: [Double]) {
            var runs = Array(repeating: [HTTPBenchmarks.Run](), count: cases.count)
            for _ in 0..<rounds {
                for (index, (server, path)) in cases.enumerated() {
                    runs[index].append(try HTTPBenchmarks.measure(pid: server.pid) { try wrk(port: server.port, path: path, seconds: seconds) })
                }
            }
            let best = runs.map { r in HTTPBenchmarks.Run(rps: r.map(\.rps).max()!, cpuPerRequest: r.map(\.cpuPerRequest).min()!) }
            let ratios = runs.map { r in zip(r, runs[0]).map { $0.rps / max($1.rps, 1) }.sorted()[rounds / 2] }
            return (best, ratios)
        }
        // Two floors for the file: the same bytes from memory (what a cache
        // can reach) and read from disk per request.
        let file = try sideBySide([(floor, "/memory/file"), (rib, staticPath), (floor, "/static/file")])
        let pit = try sideBySide([(floor, "/memory/file"), (rib, "/api/pit"), (floor, "/")])

        var table = Table(
            "Rib House as shipped vs libmicrohttpd from C (each server pinned to core 0, wrk -t1 -c50 on core 1, \(rounds) alternating rounds × \(seconds) s)",
            columns: ["case", "floor req/s (best)", "measured req/s (best)", "best/best", "median round ratio", "target", "floor µs CPU/req", "measured µs CPU/req"])
        func row(_ name: String, _ c: HTTPBenchmarks.Run, _ n: HTTPBenchmarks.Run, median: Double, target: String) {
            table.add(name, fmt(c.rps, 0), fmt(n.rps, 0), fmt(n.rps / c.rps, 2) + "x", fmt(median, 2) + "x", target,
                      fmt(c.cpuPerRequest), fmt(n.cpuPerRequest))
        }
        row("static file \(staticPath) (\(size) B) vs C from memory", file.best[0], file.best[1], median: file.medianRatio[1], target: "≥ 0.85x")
        row("C reading the file per request vs C from memory", file.best[0], file.best[2], median: file.medianRatio[2], target: "(floor)")
        row("GET /api/pit vs C file from memory", pit.best[0], pit.best[1], median: pit.medianRatio[1], target: "≥ 0.70x")
        row("C plain text vs C file from memory", pit.best[0], pit.best[2], median: pit.medianRatio[2], target: "(floor)")
        table.print()

        // The access log: on against off, both loaded at the same moment, over
        // fresh pairs of servers; and, as a control, two servers with the log off.
        func pairRatios(_ extra: [String]) throws -> [Double] {
            var ratios: [Double] = []
            for pair in 0..<logPairs {
                // Started in turn first and second: the order is not what is measured.
                let starts = [["--no-access-log"], extra]
                let servers = try (pair % 2 == 0 ? starts : starts.reversed()).enumerated().map { index, flags in
                    try startRibHouse(binary, log: work + "/pair-\(pair)-\(index).log", extra: flags)
                }
                defer { servers.forEach { $0.stop() } }
                let (off, measured) = pair % 2 == 0 ? (servers[0], servers[1]) : (servers[1], servers[0])
                for server in servers { _ = try wrk(port: server.port, path: staticPath, seconds: 1) }
                ratios += try sameMoment(measured, off, path: staticPath, rounds: logRounds, seconds: seconds)
            }
            return ratios.sorted()
        }
        let logRatios = try pairRatios([])
        let controlRatios = try pairRatios(["--no-access-log"])
        let logCost = logRatios[logRatios.count / 2] - 1
        let controlSpread = controlRatios[controlRatios.count / 2] - 1
        var logTable = Table(
            "Rib House access log: CPU per static request, log on (to a file) over log off (--no-access-log), both loaded at the same moment (servers on core 0, two wrk -t1 -c50 on core 1), \(logPairs) fresh pairs × \(logRounds) rounds × \(seconds) s",
            columns: ["measure", "value", "target", "result"])
        logTable.add("cost of logging (median of rounds)", fmt(logCost * 100) + " %", "≤ 5 %", logCost <= 0.05 ? "pass" : "MISS")
        logTable.add("rounds, lowest to highest", logRatios.map { fmt(($0 - 1) * 100) }.joined(separator: ", ") + " %", "", "")
        logTable.add("control: both servers with the log off (median)", fmt(controlSpread * 100) + " %", "", "method")
        logTable.add("control rounds, lowest to highest", controlRatios.map { fmt(($0 - 1) * 100) }.joined(separator: ", ") + " %", "", "")
        logTable.print()
        fflush(nil)
    }

    /// Starts `arguments` and reads its port from the first stdout line it accepts.
    static func start(_ arguments: [String], log: String?, portLine: (String) -> Int?) throws -> Server {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let out = Pipe()
        process.standardOutput = out
        if let log {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: log)
        }
        try process.run()
        while let line = HTTPBenchmarks.readLine(out.fileHandleForReading) {
            if let port = portLine(line) { return Server(process: process, port: port) }
        }
        process.terminate()
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(arguments.joined(separator: " ")) did not report a port"])
    }

    /// The release Rib House `binary` on core 0, serving the package's
    /// `Public/` on a free port, its standard error to `log`.
    static func startRibHouse(_ binary: String, log: String, extra: [String] = []) throws -> Server {
        try start(
            ["/usr/bin/taskset", "-c", "0", binary, "--port", "0", "--public", packageRoot + "/Public"] + extra, log: log,
            portLine: { $0.hasPrefix("Rib House on ") ? $0.split(separator: ":").last.flatMap { Int($0) } : nil })
    }

    /// `wrk -t1 -c50` pinned to core 1.
    static func wrk(port: Int, path: String, seconds: Int) throws -> (rps: Double, requests: Double) {
        try startWrk(port: port, path: path, seconds: seconds)()
    }

    /// Starts `wrk -t1 -c50` pinned to core 1; the function returned waits
    /// for it and reads its figures.
    static func startWrk(port: Int, path: String, seconds: Int) throws -> () -> (rps: Double, requests: Double) {
        HTTPBenchmarks.progress("wrk -t1 -c50 \(seconds)s on :\(port)\(path)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = ["-c", "1", "/usr/bin/wrk", "-t1", "-c50", "-d\(seconds)s", "http://127.0.0.1:\(port)\(path)"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        return {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return HTTPBenchmarks.wrkFigures(data, path: path)
        }
    }

    /// CPU per request of `a` over that of `b`, round by round, with both
    /// under load at the same moment: the two servers share core 0 and two
    /// `wrk`s share core 1. Whatever else the machine does in a round, it
    /// does to both, so the ratio holds where a figure taken in a round of
    /// its own swings by 2x from one round to the next.
    static func sameMoment(_ a: Server, _ b: Server, path: String, rounds: Int, seconds: Int) throws -> [Double] {
        var ratios: [Double] = []
        for round in 0..<rounds {
            let before = (HTTPBenchmarks.childCPUSeconds(a.pid), HTTPBenchmarks.childCPUSeconds(b.pid))
            // Each server's load starts first in turn.
            let order = round % 2 == 0 ? [a, b] : [b, a]
            let loads = try order.map { try startWrk(port: $0.port, path: path, seconds: seconds) }
            let results = loads.map { $0() }
            let (resultA, resultB) = round % 2 == 0 ? (results[0], results[1]) : (results[1], results[0])
            let cpuA = (HTTPBenchmarks.childCPUSeconds(a.pid) - before.0) / max(resultA.requests, 1)
            let cpuB = (HTTPBenchmarks.childCPUSeconds(b.pid) - before.1) / max(resultB.requests, 1)
            ratios.append(cpuA / max(cpuB, 1e-9))
        }
        return ratios
    }
}

/// The live-users run: N simulated browsers (Floor/liveusers.c) each sign in
/// through the form and hold `/_napkin/events` on one release Rib House in
/// its default configuration (server on core 0, clients on core 1), and the
/// same clients against the C floor (Floor/livefloor.c: libmicrohttpd in
/// napkin's mode, answering the login steps and sending every stream one
/// pit-sized event per tick), back to back in the same run. One more
/// diner signs in while they watch: the patch of Rib House's "In the house
/// now" is timed apart from the pit's ticks.
enum LiveUsersBenchmarks {
    static let watchSeconds = 13
    /// What only the patch of Rib House's "In the house now" contains.
    static let presenceMarker = "in-house"

    static func run() async throws {
        guard let binary = RibHouseBenchmarks.ribHouseBinary() else {
            print("ribhouse-live: no release RibHouse binary: run `swift build -c release --product RibHouse` first"); exit(1)
        }
        let counts = (ProcessInfo.processInfo.environment["NAPKIN_LIVE_USERS"] ?? "2000,10000")
            .split(separator: ",").compactMap { Int($0) }
        let work = NSTemporaryDirectory() + "napkin-live-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try HTTPBenchmarks.compile("liveusers.c", to: work + "/liveusers", libraries: ["-pthread"])
        try HTTPBenchmarks.compile("livefloor.c", to: work + "/livefloor", libraries: ["-lmicrohttpd", "-pthread"])

        var table = Table(
            "Rib House live users vs the C floor (default configuration, server on core 0, clients on core 1, pit ticks every 2 s, watched \(watchSeconds) s)",
            columns: ["measure"] + counts.flatMap { ["Rib House, N = \($0)", "C floor, N = \($0)"] } + ["target"])
        var columns: [[String]] = []
        for count in counts {
            let rib = try RibHouseBenchmarks.startRibHouse(binary, log: work + "/access-\(count).log")
            columns.append(try await one(count, server: rib, work: work))
            let floor = try RibHouseBenchmarks.start(["/usr/bin/taskset", "-c", "0", work + "/livefloor", "2"], log: nil, portLine: { Int($0) })
            columns.append(try await one(count, server: floor, work: work, stop: SIGKILL))
        }
        let names = ["signed in and holding a stream", "failed to sign in or open the stream (2 s timeouts)", "logins/s",
                     "server RSS per live user", "server RSS per live user, at the last tick watched", "ticks seen (full ticks / all)", "patches per stream per tick (events / stream / 2 s)",
                     "streams reached per tick (median)", "tick spread, first stream to last (median)",
                     "server CPU per tick", "server CPU per event delivered (heartbeats and idle time included)",
                     "GET /api/menu from a new client, users held", "GET / from a new client, users held",
                     "a diner joins: streams its list patch reached", "a diner joins: spread, first stream to last",
                     "a diner joins: spread / tick spread"]
        let targets = ["N", "0", "", "≤ 24 KiB (presence on)", "≤ 24 KiB (presence on)", "", "1", "N", "≤ 250 ms", "", "", "fast", "fast (a 503 when full)",
                       "N", "", "≤ 1.3x"]
        for (index, name) in names.enumerated() {
            table.add(row: [name] + columns.map { index < $0.count ? $0[index] : "" } + [targets[index]])
        }
        table.print()
        fflush(nil)
    }

    /// One server under `count` users: it is warmed up, measured, and stopped.
    static func one(_ count: Int, server: RibHouseBenchmarks.Server, work: String, stop: Int32 = SIGTERM) async throws -> [String] {
        defer { server.stop(stop) }
        _ = try RibHouseBenchmarks.wrk(port: server.port, path: "/favicon.svg", seconds: 1)
        try await Task.sleep(for: .seconds(1))
        let rssBefore = residentKiB(server.pid)

        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        client.arguments = ["-c", "1", work + "/liveusers", String(server.port), String(count), String(watchSeconds), presenceMarker]
        let out = Pipe()
        client.standardOutput = out
        try client.run()
        HTTPBenchmarks.progress("ribhouse-live: signing in \(count) users on :\(server.port)")
        let ready = (HTTPBenchmarks.readLine(out.fileHandleForReading) ?? "ready 0 0 0 0 0").split(separator: " ").map(String.init)
        let held = Int(ready[1]) ?? 0
        let rssAfter = residentKiB(server.pid)
        HTTPBenchmarks.progress("ribhouse-live: \(ready.joined(separator: " ")); watching \(watchSeconds) s")
        let cpuStart = HTTPBenchmarks.childCPUSeconds(server.pid)
        // While the users sit there: a fresh client's API call and new connection.
        let menu = timedGet(port: server.port, path: "/api/menu", source: "127.0.250.1")
        var ticks: [[Double]] = []
        var joins: [[Double]] = []
        var allEvents = 0.0
        // RSS again at each tick while the users stay: by the last, what the
        // sign-ins freed has gone back to the system (jemalloc returns freed
        // pages after a few seconds), and what is left is what they hold.
        var rssHeld = rssAfter
        while let line = HTTPBenchmarks.readLine(out.fileHandleForReading) {
            let words = line.split(separator: " ").compactMap { Double($0) }
            if line.hasPrefix("tick"), words.count == 3 {
                ticks.append(words)
                rssHeld = residentKiB(server.pid)
            }
            if line.hasPrefix("join"), words.count == 3 { joins.append(words) }
            if line.hasPrefix("done") {
                allEvents = words.first ?? 0
                break
            }
        }
        let cpu = HTTPBenchmarks.childCPUSeconds(server.pid) - cpuStart
        client.waitUntilExit()

        // Full ticks only: the first burst can be the streams' opening patches.
        let full = ticks.filter { Int($0[0]) >= held && held > 0 }
        let median = { (values: [Double]) -> Double in values.isEmpty ? .nan : values.sorted()[values.count / 2] }
        // Every event over the watch, per stream, per 2 s tick: bursts can
        // run together when a tick takes most of the interval.
        let perStream = allEvents / Double(max(held, 1)) / (Double(watchSeconds) / 2)
        let measured = ticks.dropFirst()
        return [
            String(held), ready[2] + (ready.count > 5 && ready[5] != "0" ? " (then \(ready[5]) skipped)" : ""),
            ready.count > 4 ? ready[4] : "-",
            held > 0 ? fmt(Double(rssAfter - rssBefore) / Double(held)) + " KiB" : "-",
            held > 0 ? fmt(Double(rssHeld - rssBefore) / Double(held)) + " KiB" : "-",
            "\(full.count) / \(ticks.count)",
            held == 0 ? "-" : fmt(perStream, 2),
            measured.isEmpty ? "0" : fmt(median(measured.map { $0[0] }), 0),
            measured.isEmpty ? "-" : fmt(median(measured.map { $0[2] })) + " ms",
            ticks.isEmpty ? "-" : fmt(cpu / Double(ticks.count) * 1000) + " ms",
            allEvents == 0 ? "-" : fmt(cpu / allEvents * 1_000_000) + " µs",
            menu, newConnection(port: server.port),
            // The diner who signs in while the others watch: the list's patch.
            joins.isEmpty ? "-" : fmt(median(joins.map { $0[0] }), 0),
            joins.isEmpty ? "-" : fmt(median(joins.map { $0[2] })) + " ms",
            joins.isEmpty || measured.isEmpty ? "-" : fmt(median(joins.map { $0[2] }) / median(measured.map { $0[2] }), 2) + "x",
        ]
    }

    /// `GET path` from `source`: "200 in 3.1 ms", or what went wrong and when.
    static func timedGet(port: Int, path: String, source: String) -> String {
        let start = ContinuousClock.now
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var src = sockaddr_in(), dst = sockaddr_in()
        src.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &src.sin_addr)
        dst.sin_family = sa_family_t(AF_INET)
        dst.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr)
        let connected = withUnsafePointer(to: &src) { s in
            s.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0 && withUnsafePointer(to: &dst) { d in
            d.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        guard connected else { return "connect failed" }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buffer, 64)
        let ms = fmt(Double((ContinuousClock.now - start).components.attoseconds) / 1e15
                     + Double((ContinuousClock.now - start).components.seconds) * 1000)
        guard n > 12 else { return "no answer (\(ms) ms)" }
        return String(decoding: buffer[9..<12], as: UTF8.self) + " in \(ms) ms"
    }

    static func newConnection(port: Int) -> String {
        timedGet(port: port, path: "/", source: "127.0.250.2")
    }

    static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}
