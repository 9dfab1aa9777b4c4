import NapkinHTTP
import NapkinRedis
import NapkinStorage
import NapkinWeb

/// What a ``ServeCommand`` builds an app with: the options it was given,
/// napkin's configuration with those options applied, and the connection to
/// the app's other processes (Redis when `--redis` is given, this process
/// alone otherwise).
public struct ServeSetup: Sendable {
    /// The command line as read.
    public let options: ServeOptions
    /// The app's configuration, with the options applied: session and tab
    /// timeouts, the public origin (and cookies for HTTPS only behind an
    /// `https://` one), trusted proxies, the metrics registry and token,
    /// the log format, and session records in Redis.
    public let configuration: NapkinConfiguration
    /// How the app's processes reach each other.
    public let bus: any MessageBus
    /// Where the app's processes hold leases.
    public let leases: any LeaseStore
    /// The Redis client the bus, leases and records share, if any.
    let redis: RedisClient?

    /// Where metrics are kept, when they are served somewhere.
    public var metrics: MetricsRegistry? { configuration.metrics }

    /// Applies `options` to `configuration`, and connects to Redis if the
    /// options name it (the client connects on first use).
    public init(options: ServeOptions, configuration base: NapkinConfiguration) {
        self.options = options
        var configuration = base
        if let timeout = options.newSessionTimeout { configuration.newSessionIdleTimeout = timeout }
        if let grace = options.tabGrace { configuration.tabGracePeriod = grace }
        configuration.publicOrigin = options.publicOrigin
        configuration.secureCookies = options.publicOrigin?.lowercased().hasPrefix("https://") ?? false
        configuration.trustedProxies = options.trustedProxies
        // Kept only when served: on a listener of their own, or behind the token.
        configuration.metrics = options.keepsMetrics ? MetricsRegistry() : nil
        configuration.metricsToken = options.metricsToken
        configuration.logFormat = options.logFormat
        let redis = options.redis.map { RedisClient(configuration: $0) }
        if let redis {
            configuration.sessionRecords = RedisSessionRecords(client: redis, secret: options.redisKey)
            if let metrics = configuration.metrics { RedisMetrics.register(redis, in: metrics) }
        }
        self.configuration = configuration
        self.redis = redis
        bus = redis.map { RedisBus(client: $0, secret: options.redisKey) } ?? LocalBus()
        leases = redis.map { RedisLeases(client: $0) } ?? LocalLeases()
    }

    /// Why a Redis without a password and without `--redis-key` is a risk
    /// worth a warning; `nil` when it is not.
    var redisWarning: String? {
        guard let redis, options.redisKey == nil, redis.configuration.password == nil else { return nil }
        return "warning: Redis has no password and no --redis-key was given: whoever can write to Redis can forge sessions"
    }

    /// Closes the connections to the other processes, after the app.
    func shutdown() async {
        await (bus as? RedisBus)?.shutdown()
        await redis?.shutdown()
    }
}
