import Foundation
import NapkinHTTP
import NapkinRedis

/// What a ``ServeCommand`` was told on its command line and in its
/// environment: napkin's own flags (see ``ServeCommand`` for the list) and
/// the values of the flags the app declared.
///
/// Parsing checks every value, so a typo stops the process with the reason
/// before anything listens: a bad port, an origin with a path, a secret too
/// short to be one, a dashboard offered off this machine without a token.
public struct ServeOptions: Sendable, Equatable {
    /// The address to listen on: the loopback address unless told otherwise.
    public var host = "127.0.0.1"
    /// The port to listen on; `0` takes a free one.
    public var port = 8080
    /// Where the app's static files are, if given.
    public var publicDirectory: String?
    /// How long a session that served one page and never came back is kept
    /// (napkin's default when `nil`).
    public var newSessionTimeout: Duration?
    /// How long a tab without a stream is kept (napkin's default when `nil`).
    public var tabGrace: Duration?
    /// `--no-access-log` turns this off: no line per request on standard error.
    public var accessLog = true
    /// The access log's format.
    public var logFormat: AccessLog.Format = .text
    /// Where sessions, the message bus and leases live; this process alone
    /// when `nil`.
    public var redis: RedisConfiguration?
    /// The secret session records in Redis are keyed and sealed with;
    /// derived from the Redis credentials when `nil`.
    public var redisKey: [UInt8]?
    /// The origin browsers use, when a proxy does not pass `Host` on.
    public var publicOrigin: String?
    /// Proxies whose `X-Forwarded-Host` and `X-Forwarded-Proto` are believed.
    public var trustedProxies: Set<String> = []
    /// How long a drain waits for requests in flight before the process exits.
    public var drainTimeout: Duration = .seconds(10)
    /// Where `/metrics` and the dashboard get a listener of their own, if anywhere.
    public var metricsPort: Int?
    /// The address of that listener.
    public var metricsHost = "127.0.0.1"
    /// The bearer token that opens `/metrics` on the app's own port.
    public var metricsToken: String?
    /// `--help` was given: the command prints its usage and stops.
    public var showHelp = false
    /// The values of the app's own flags, by flag; a flag without a value
    /// maps to the empty string.
    var appValues: [String: String] = [:]

    /// Metrics are kept when they are served somewhere.
    public var keepsMetrics: Bool { metricsPort != nil || metricsToken != nil }

    /// Why the command line was refused, in a sentence that names the flag.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        /// The sentence, as the command prints it before the usage.
        public let description: String

        /// A refusal that reads `description`, cut to a line: it may quote
        /// a value as long as the command line.
        public init(_ description: String) {
            self.description = description.count > 160 ? description.prefix(160) + "…" : description
        }
    }

    /// Reads `arguments` (without the program's name) and `environment`;
    /// `appFlags` are the flags the app accepts besides napkin's. A flag
    /// given twice keeps its last value, except `--trusted-proxy`, which
    /// adds up.
    public init(
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        appFlags: [ServeFlag] = []
    ) throws(Invalid) {
        try readEnvironment(environment)
        let app = Dictionary(appFlags.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            let declared = app[flag]
            guard let known = declared ?? ServeFlag.builtIn(named: flag) else { throw Invalid("unknown option \(flag)") }
            var value = ""
            if known.value != nil {
                guard let next = remaining.popFirst() else { throw Invalid("\(flag) needs a value") }
                value = next
            }
            if declared != nil {
                appValues[flag] = value
            } else {
                try read(flag, value)
            }
        }
        // The metrics listener serves the dashboard too, which shows
        // people's sessions: off this machine only behind the token.
        if metricsPort != nil, !["127.0.0.1", "::1", "localhost"].contains(metricsHost), metricsToken == nil {
            throw Invalid("--metrics-host \(metricsHost) needs --metrics-token: the listener serves the dashboard")
        }
    }

    private mutating func readEnvironment(_ environment: [String: String]) throws(Invalid) {
        func given(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let port = given("PORT") { self.port = try Self.port(port, flag: "PORT") }
        if let origin = given("PUBLIC_ORIGIN") { publicOrigin = try Self.origin(origin) }
        if let url = given("REDIS_URL") { redis = try Self.redis(url) }
        if let key = given("REDIS_KEY") { redisKey = Array(try Self.secret(key, flag: "REDIS_KEY").utf8) }
        if let token = given("METRICS_TOKEN") { metricsToken = try Self.secret(token, flag: "METRICS_TOKEN") }
    }

    private mutating func read(_ flag: String, _ value: String) throws(Invalid) {
        switch flag {
        case "--help", "-h": showHelp = true
        case "--no-access-log": accessLog = false
        case "--host": host = value
        case "--port": port = try Self.port(value, flag: flag)
        case "--public": publicDirectory = value
        case "--public-origin": publicOrigin = try Self.origin(value)
        case "--redis": redis = try Self.redis(value)
        case "--redis-key": redisKey = Array(try Self.secret(value, flag: flag).utf8)
        case "--trusted-proxy": trustedProxies.insert(value)
        case "--metrics-port": metricsPort = try Self.port(value, flag: flag)
        case "--metrics-host": metricsHost = value
        case "--metrics-token": metricsToken = try Self.secret(value, flag: flag)
        case "--log-format":
            switch value {
            case "text": logFormat = .text
            case "json": logFormat = .json
            default: throw Invalid("--log-format takes text or json")
            }
        case "--new-session-timeout": newSessionTimeout = .seconds(try Self.whole(value, flag: flag, unit: "seconds"))
        case "--tab-grace": tabGrace = .seconds(try Self.whole(value, flag: flag, unit: "seconds"))
        case "--drain-timeout": drainTimeout = .seconds(try Self.whole(value, flag: flag, unit: "seconds", upTo: 3600))
        default: throw Invalid("unknown option \(flag)")
        }
    }
}
