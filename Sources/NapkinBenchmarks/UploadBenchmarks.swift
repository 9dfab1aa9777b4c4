import Foundation
import NapkinHTTP
import Synchronization

/// The uploads suite: a 100 MiB file posted by `curl` as `multipart/form-data`
/// to a NapkinHTTP server whose route decodes it as an `UploadedFile` (its
/// limits raised to fit, the rest default), against the same bytes `PUT` by
/// `curl` to two C servers writing the body to a file, on the same machine in
/// the same run: libmicrohttpd with the same connection pool
/// (`Floor/upload.c`, the floor the target is measured against) and nginx
/// (its WebDAV module, with `client_body_in_file_only`). libmicrohttpd reads a
/// body into the connection's pool, so its reads are as small as the pool;
/// the 64 KiB rows show what a larger pool buys. Reports throughput and how
/// much napkin's resident memory grows during an upload (sampled in uploads
/// that are not timed).
enum UploadBenchmarks {
    static let size = 100 << 20
    /// Uploads to each server, alternating: the best counts, as the machine's other load comes and goes.
    static let runs = 5
    /// Uploads to each napkin server with its resident memory sampled.
    static let sampledRuns = 2

    static func run() async throws {
        let work = NSTemporaryDirectory() + "napkin-bench-uploads-\(getpid())"
        try FileManager.default.createDirectory(atPath: work + "/nginx/dav", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work + "/nginx/body", withIntermediateDirectories: true)
        // nginx's worker may run as another user (`nobody` under root): it writes here.
        for directory in ["/nginx/dav", "/nginx/body"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: work + directory)
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = work + "/upload.bin"
        // Random bytes, read in one go (a generator call per word costs a system call each).
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else {
            print("uploads: no /dev/urandom")
            return
        }
        try random.readData(ofLength: size).write(to: URL(fileURLWithPath: file))
        try random.close()

        var router = HTTPRouter()
        router.post("/upload") { request in
            struct Posted: Decodable { var file: UploadedFile }
            return .text(String(try request.decode(Posted.self).file.size))
        }
        let limits = UploadLimits(maxFileBytes: 2 * size, maxRequestBytes: 2 * size, directory: work)
        // The default per-connection pool (8 KiB) bounds each read of the
        // body; a larger one reads more per call.
        let pools = [ServerConfiguration().connectionMemoryLimit, 64 * 1024]
        let servers = pools.map { pool in
            HTTPServer(configuration: ServerConfiguration(connectionMemoryLimit: pool, uploads: limits), responder: router)
        }
        for server in servers { try server.start() }
        defer { Task { for server in servers { await server.shutdown() } } }

        try HTTPBenchmarks.compile("upload.c", to: work + "/upload", libraries: ["-lmicrohttpd"])
        var floors: [(process: Process, port: Int)] = []
        defer { for floor in floors { kill(floor.process.processIdentifier, SIGKILL); floor.process.waitUntilExit() } }
        for pool in pools {
            let floor = Process()
            floor.executableURL = URL(fileURLWithPath: work + "/upload")
            floor.arguments = [String(ServerConfiguration().workerThreads), String(pool), work]
            let out = Pipe()
            floor.standardOutput = out
            try floor.run()
            guard let line = HTTPBenchmarks.readLine(out.fileHandleForReading), let port = Int(line) else {
                print("uploads: the C floor did not start")
                return
            }
            floors.append((floor, port))
        }

        guard let (nginx, nginxPort) = try startNginx(in: work + "/nginx") else {
            print("uploads: nginx is not installed (scripts/setup --bench)")
            return
        }
        defer {
            nginx.terminate()
            nginx.waitUntilExit()
        }

        // napkin and its C floor get the same request from the same curl: the
        // floor writes the whole multipart body, napkin the file's part of it.
        let form = ["-F", "file=@\(file);type=application/octet-stream"]
        var napkinRuns = pools.map { _ in [Double]() }, floorRuns = pools.map { _ in [Double]() }
        var nginxRuns: [Double] = [], growths = pools.map { _ in [Int]() }
        for _ in 0..<runs {
            for (index, server) in servers.enumerated() {
                napkinRuns[index].append(try curl(form + ["http://127.0.0.1:\(server.port)/upload"]))
                floorRuns[index].append(try curl(form + ["http://127.0.0.1:\(floors[index].port)/upload"]))
            }
            nginxRuns.append(try curl(["-T", file, "http://127.0.0.1:\(nginxPort)/dav/upload.bin"]))
        }
        // Memory is sampled in uploads of its own: the sampling thread would
        // take CPU from napkin's timed uploads, and from no other server's.
        for _ in 0..<sampledRuns {
            for (index, server) in servers.enumerated() {
                let before = HTTPBenchmarks.residentBytes()
                let peak = PeakResident()
                _ = try curl(form + ["http://127.0.0.1:\(server.port)/upload"])
                growths[index].append(peak.stop() - before)
            }
        }
        let mib = Double(size) / Double(1 << 20)
        let nginxBest = mib / nginxRuns.min()!
        var table = Table("A 100 MiB upload with curl, to a file: napkin (multipart, UploadedFile) vs libmicrohttpd from C (the same post, body to a file) and nginx (PUT, to a file), best of \(runs) alternating",
                          columns: ["server", "MiB/s", "napkin / C, same pool", "median of rounds", "target", "napkin / nginx", "RSS growth, MiB (most of \(sampledRuns) sampled)", "target"])
        table.add("nginx (client_body_in_file_only)", String(format: "%.0f", nginxBest), "", "", "", "", "", "")
        for (index, pool) in pools.enumerated() {
            let best = mib / napkinRuns[index].min()!, floorBest = mib / floorRuns[index].min()!
            // Each round's napkin upload against the floor's right after it:
            // a slow moment of the machine weighs on both sides of a ratio.
            let rounds = zip(napkinRuns[index], floorRuns[index]).map { napkin, floor in floor / napkin }.sorted()
            let label = index == 0 ? "\(pool / 1024) KiB pool (default)" : "\(pool / 1024) KiB pool"
            table.add("libmicrohttpd from C, \(label)", String(format: "%.0f", floorBest), "", "", "", "", "", "")
            table.add("napkin, \(label)", String(format: "%.0f", best), String(format: "%.2f", best / floorBest), String(format: "%.2f", rounds[rounds.count / 2]),
                      index == 0 ? "≥ 0.80" : "",
                      String(format: "%.2f", best / nginxBest), String(format: "%.2f", Double(growths[index].max()!) / Double(1 << 20)), "< 2")
        }
        table.print()
    }

    /// Runs `curl` with `arguments` and answers the transfer's seconds.
    static func curl(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sS", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "-H", "Expect:"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard fields.count == 2, let code = Int(fields[0]), (200..<300).contains(code), let seconds = Double(fields[1]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "curl answered \(fields)"])
        }
        return seconds
    }

    /// Starts nginx in the foreground on a free port, with a configuration
    /// of its own in `directory`, once it accepts connections; nil when nginx
    /// is not installed.
    static func startNginx(in directory: String) throws -> (Process, Int)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else { return nil }
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        close(probe)
        let configuration = """
            daemon off; worker_processes 1; pid \(directory)/nginx.pid; error_log \(directory)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/body; fastcgi_temp_path \(directory)/body;
                uwsgi_temp_path \(directory)/body; scgi_temp_path \(directory)/body;
                server {
                    listen 127.0.0.1:\(port);
                    client_max_body_size 256m;
                    client_body_in_file_only clean;
                    location /dav/ { root \(directory); dav_methods PUT; create_full_put_path on; }
                }
            }
            """
        try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", directory + "/nginx.conf", "-p", directory]
        try process.run()
        for _ in 0..<500 where process.isRunning {
            if (try? curlStatus(["http://127.0.0.1:\(port)/"])) != nil { return (process, port) }
            usleep(10_000)
        }
        process.terminate()
        process.waitUntilExit()
        return nil
    }

    /// Whether anything answers at `arguments`' URL (any status).
    static func curlStatus(_ arguments: [String]) throws -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let code = Int(String(decoding: data, as: UTF8.self)) ?? 0
        return code > 0 ? code : nil
    }
}

/// The most resident memory seen, sampled every 2 ms on a thread of its own
/// until ``stop()``.
final class PeakResident: Sendable {
    private let peak = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init() {
        peak.store(HTTPBenchmarks.residentBytes(), ordering: .relaxed)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                let now = HTTPBenchmarks.residentBytes()
                if now > peak.load(ordering: .relaxed) { peak.store(now, ordering: .relaxed) }
                usleep(2000)
            }
            done.signal()
        }
    }

    /// Stops sampling; the peak.
    func stop() -> Int {
        running.store(false, ordering: .relaxed)
        done.wait()
        return peak.load(ordering: .relaxed)
    }
}
