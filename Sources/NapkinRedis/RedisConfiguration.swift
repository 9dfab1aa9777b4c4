@_spi(Napkin) import NapkinSupport

/// Where a ``RedisClient`` connects, and how long it waits.
public struct RedisConfiguration: Sendable, Equatable {
    /// The server's host name or IP address.
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The logical database (`SELECT`ed on every new connection). Pub/sub
    /// channels are server-wide in Redis, whatever the database.
    public var database: Int
    /// The ACL user to authenticate as (`AUTH user password`); `nil` is
    /// Redis's default user.
    public var username: String?
    /// The password sent with `AUTH` on every new connection, before
    /// `SELECT`; `nil` sends no `AUTH`.
    public var password: String?
    /// How many connections a ``RedisClient`` keeps (at least one).
    public var connections: Int
    /// How long a connection attempt may take before the server counts as
    /// unreachable.
    public var connectTimeout: Duration
    /// How long one command may wait to be sent or answered.
    public var commandTimeout: Duration

    /// A configuration; every argument has a default (a local Redis).
    public init(
        host: String = "127.0.0.1",
        port: Int = RedisConfiguration.defaultPort,
        database: Int = 0,
        username: String? = nil,
        password: String? = nil,
        connections: Int = 4,
        connectTimeout: Duration = .milliseconds(250),
        commandTimeout: Duration = .seconds(2)
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.username = username
        self.password = password
        self.connections = connections
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    /// The secret that keys and seals what napkin writes to Redis (session
    /// records, bus messages) when the app gives none: a hash of the user
    /// name and password, the same for every process given the same URL.
    /// Whoever knows the password can derive it too: give a secret of your
    /// own (16 random bytes or more) to every process of a deployment.
    public var derivedSecret: [UInt8] {
        SHA256.hash(Array("napkin secret\0\(username ?? "")\0\(password ?? "")".utf8))
    }

    /// Redis's standard port, used when a URL names none.
    public static let defaultPort = 6379

    /// The configuration a URL names: `redis://host`, `redis://host:port` or
    /// `redis://host:port/db` (port 6379 and database 0 unless given; an
    /// IPv6 host is written in brackets), with credentials before the host
    /// if the server wants them: `redis://:password@host` (the default
    /// user) or `redis://user:password@host` (an ACL user), `%`-escaped
    /// where they hold `:`, `@` or `/`. Anything else, such as TLS
    /// (`rediss://`), a query or a path that is not a database number,
    /// throws ``RedisError/invalidURL(_:)`` saying why.
    public init(url: String) throws {
        let target = try RedisURLParser.parse(url)
        self.init(
            host: target.host, port: target.port, database: target.database,
            username: target.username, password: target.password)
    }

    /// The configuration's address as a URL (`redis://host:port/db`, with
    /// `user@` for an ACL user): never the password, so it can be logged.
    public var url: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let user = username.map { "\($0)@" } ?? ""
        return "redis://\(user)\(shownHost):\(port)/\(database)"
    }
}
