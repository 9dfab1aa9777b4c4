/// What a ``RedisClient`` has done since it was made, for an app's metrics
/// (NapkinServe reports them as `napkin_redis_*` counters).
public struct RedisStatistics: Sendable, Equatable {
    /// Commands sent (round trips asked for), whatever their outcome.
    public let commands: Int
    /// Commands that failed: an error reply, Redis out of reach, a client
    /// shut down.
    public let errors: Int
    /// Connections opened again after a connection's first: each time a
    /// pooled connection broke and was made anew.
    public let reconnects: Int
}
