import Foundation
import NapkinRedis

/// What `swift run RibHouse` can be told: `--host`, `--port` (or `PORT`),
/// `--public`, `--pit-interval` in milliseconds (tests speed the pit up), and
/// `--new-session-timeout` in seconds (how long a session that served one
/// page and never came back is kept), `--no-access-log`, and behind a proxy
/// `--public-origin URL` (also `PUBLIC_ORIGIN`) and `--trusted-proxy ADDRESS`
/// (repeatable); `--redis URL` (also `REDIS_URL`, with credentials as
/// `redis://:password@host` or `redis://user:password@host`) keeps sessions,
/// the announcement bus and the pit in Redis, shared by every process using
/// it; `--redis-key SECRET` (also `REDIS_KEY`, 16 bytes or more) keys and
/// seals the session records there, the same for every process (derived
/// from the Redis password when not given); `--drain-timeout SECONDS` bounds
/// how long SIGTERM's drain waits for requests in flight (10 by default).
/// `--metrics-port P` serves `/metrics` and the dashboard on a listener of
/// their own (on `--metrics-host`, `127.0.0.1` by default);
/// `--metrics-token T` (also `METRICS_TOKEN`) serves `/metrics` on the app's
/// port to requests carrying the token, and is asked of the dashboard too;
/// `--log-format json` writes the access log as one JSON object per line.
struct LaunchOptions: Equatable {
    var host = "127.0.0.1"
    var port = 8080
    var publicDirectory: String?
    var pitInterval: Duration = .seconds(2)
    var newSessionTimeout: Duration?
    /// How long a tab without a stream is kept (napkin's default when `nil`).
    var tabGrace: Duration?
    /// `--no-access-log`: no line per request on standard error.
    var accessLog = true
    /// Where sessions, the bus and the pit's lease live (`redis://host:port/db`);
    /// this process alone when `nil`.
    var redis: RedisConfiguration?
    /// The secret session records in Redis are keyed and sealed with;
    /// derived from the Redis credentials when `nil`.
    var redisKey: [UInt8]?
    /// The origin browsers use, when a proxy does not pass `Host` on.
    var publicOrigin: String?
    /// Proxies whose `X-Forwarded-Host`/`-Proto` are believed.
    var trustedProxies: Set<String> = []
    /// How long a drain waits for requests in flight before the process exits.
    var drainTimeout: Duration = .seconds(10)
    /// Where `/metrics` gets a listener of its own, if anywhere.
    var metricsPort: Int?
    /// The address of that listener: the loopback address unless told otherwise.
    var metricsHost = "127.0.0.1"
    /// The bearer token that opens `/metrics` on the app's own port.
    var metricsToken: String?
    /// `--log-format json`: the access log as one JSON object per line.
    var jsonLog = false
    /// Metrics are kept when they are served somewhere.
    var keepsMetrics: Bool { metricsPort != nil || metricsToken != nil }
    /// `--help` was given: print ``usage`` and stop.
    var showHelp = false

    static let usage = "usage: RibHouse [--host H] [--port P] [--public DIR] [--pit-interval MS] [--new-session-timeout SECONDS] [--tab-grace SECONDS] "
        + "[--no-access-log] [--public-origin URL] [--trusted-proxy ADDRESS]… [--redis redis://[USER:PASSWORD@]HOST:PORT/DB] [--redis-key SECRET] "
        + "[--drain-timeout SECONDS] [--metrics-port P] [--metrics-host H] [--metrics-token TOKEN] [--log-format text|json]"

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String] = Array(CommandLine.arguments.dropFirst()),
         environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let port = environment["PORT"] {
            self.port = try Self.port(port)
        }
        if let origin = environment["PUBLIC_ORIGIN"], !origin.isEmpty {
            publicOrigin = try Self.origin(origin)
        }
        if let url = environment["REDIS_URL"], !url.isEmpty {
            redis = try Self.redis(url)
        }
        if let key = environment["REDIS_KEY"], !key.isEmpty {
            redisKey = try Self.redisKey(key)
        }
        if let token = environment["METRICS_TOKEN"], !token.isEmpty {
            metricsToken = try Self.metricsToken(token)
        }
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            if flag == "--help" || flag == "-h" {
                showHelp = true
                continue
            }
            if flag == "--no-access-log" {
                accessLog = false
                continue
            }
            guard let value = remaining.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            switch flag {
            case "--host": host = value
            case "--port": port = try Self.port(value)
            case "--public": publicDirectory = value
            case "--public-origin": publicOrigin = try Self.origin(value)
            case "--redis": redis = try Self.redis(value)
            case "--redis-key": redisKey = try Self.redisKey(value)
            case "--trusted-proxy": trustedProxies.insert(value)
            case "--metrics-port": metricsPort = try Self.port(value)
            case "--metrics-host": metricsHost = value
            case "--metrics-token": metricsToken = try Self.metricsToken(value)
            case "--log-format":
                guard value == "text" || value == "json" else { throw Invalid(description: "--log-format takes text or json") }
                jsonLog = value == "json"
            case "--new-session-timeout":
                guard let seconds = Int(value), seconds > 0 else { throw Invalid(description: "--new-session-timeout takes seconds") }
                newSessionTimeout = .seconds(seconds)
            case "--tab-grace":
                guard let seconds = Int(value), seconds > 0 else { throw Invalid(description: "--tab-grace takes seconds") }
                tabGrace = .seconds(seconds)
            case "--drain-timeout":
                guard let seconds = Int(value), (1...3600).contains(seconds) else { throw Invalid(description: "--drain-timeout takes seconds (1 to 3600)") }
                drainTimeout = .seconds(seconds)
            case "--pit-interval":
                guard let ms = Int(value), ms > 0 else { throw Invalid(description: "--pit-interval takes milliseconds") }
                pitInterval = .milliseconds(ms)
            default: throw Invalid(description: "unknown option \(flag)")
            }
        }
        // The metrics listener serves the dashboard too, which shows
        // people's sessions: off this machine only behind the token.
        if metricsPort != nil, !["127.0.0.1", "::1", "localhost"].contains(metricsHost), metricsToken == nil {
            throw Invalid(description: "--metrics-host \(metricsHost) needs --metrics-token: the listener serves the dashboard")
        }
    }

    private static func redis(_ url: String) throws -> RedisConfiguration {
        do {
            return try RedisConfiguration(url: url)
        } catch {
            throw Invalid(description: "--redis: \(error)")
        }
    }

    private static func redisKey(_ text: String) throws -> [UInt8] {
        guard text.utf8.count >= 16 else { throw Invalid(description: "--redis-key takes a secret of 16 bytes or more") }
        return Array(text.utf8)
    }

    /// A token long enough not to be guessed.
    private static func metricsToken(_ text: String) throws -> String {
        guard text.utf8.count >= 16 else { throw Invalid(description: "--metrics-token takes a secret of 16 bytes or more") }
        return text
    }

    /// `http(s)://host[:port]`, nothing more.
    private static func origin(_ text: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else { throw Invalid(description: "--public-origin takes an origin such as https://ribhouse.example, not \(text)") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    private static func port(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65535).contains(port) else { throw Invalid(description: "bad port \(text)") }
        return port
    }

    /// `Public/` at the top of the repository: found from this source file
    /// (works for `swift run` anywhere), else from the current directory.
    static func defaultPublicDirectory() -> String? {
        let fileManager = FileManager.default
        // This file is Examples/RibHouse/App/LaunchOptions.swift.
        let fromSource = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Public").path
        let fromCurrent = fileManager.currentDirectoryPath + "/Public"
        return [fromSource, fromCurrent].first { fileManager.fileExists(atPath: $0 + "/ribhouse.css") }
    }
}
