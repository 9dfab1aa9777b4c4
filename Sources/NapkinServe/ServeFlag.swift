/// One command-line flag a ``ServeCommand`` accepts: napkin's own (the
/// listener, the proxy, Redis, metrics) or one an app declares for itself.
public struct ServeFlag: Sendable, Equatable {
    /// The flag as typed, such as `--pit-interval`.
    public let name: String
    /// What its value looks like in the usage text (`MS`, `URL`); `nil` for
    /// a flag that takes no value.
    public let value: String?
    /// One line for `--help`: what the flag does, and its default.
    public let help: String

    /// A flag named `name` whose value `--help` shows as `value` (`nil`
    /// when it takes none), described by `help`.
    public init(_ name: String, value: String?, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }

    /// The flag and its value as the usage text shows them: `--port P`.
    var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}

extension ServeFlag {
    /// napkin's own flags, in the order `--help` lists them.
    static let builtIn: [ServeFlag] = [
        ServeFlag("--host", value: "H", help: "the address to listen on (127.0.0.1; 0.0.0.0 for every interface)"),
        ServeFlag("--port", value: "P", help: "the port to listen on (8080; also PORT)"),
        ServeFlag("--public", value: "DIR", help: "where the app's static files are"),
        ServeFlag("--no-access-log", value: nil, help: "no line per request on standard error"),
        ServeFlag("--log-format", value: "text|json", help: "the access log's lines: text, or one JSON object each"),
        ServeFlag("--new-session-timeout", value: "SECONDS", help: "how long a session that served one page and never came back is kept"),
        ServeFlag("--tab-grace", value: "SECONDS", help: "how long a tab without an event stream is kept"),
        ServeFlag("--public-origin", value: "URL", help: "the origin browsers use, behind a proxy (also PUBLIC_ORIGIN)"),
        ServeFlag("--trusted-proxy", value: "ADDRESS", help: "a proxy whose X-Forwarded-Host and -Proto are believed (repeatable)"),
        ServeFlag("--redis", value: "URL", help: "keep sessions, messages and leases in Redis at redis://[USER:PASSWORD@]HOST:PORT/DB (also REDIS_URL)"),
        ServeFlag("--redis-key", value: "SECRET", help: "keys and seals session records in Redis, 16 bytes or more (also REDIS_KEY)"),
        ServeFlag("--drain-timeout", value: "SECONDS", help: "how long SIGTERM waits for requests in flight (10; 1 to 3600)"),
        ServeFlag("--metrics-port", value: "P", help: "serve /metrics and the dashboard on a listener of their own"),
        ServeFlag("--metrics-host", value: "H", help: "that listener's address (127.0.0.1; another needs --metrics-token)"),
        ServeFlag("--metrics-token", value: "TOKEN", help: "serve /metrics on the app's port to requests bearing it, 16 bytes or more (also METRICS_TOKEN)"),
        ServeFlag("--help", value: nil, help: "print this and stop"),
    ]

    /// napkin's flag `name`; `-h` is `--help`.
    static func builtIn(named name: String) -> ServeFlag? {
        let name = name == "-h" ? "--help" : name
        return builtIn.first { $0.name == name }
    }
}
