import NapkinHTTP
import NapkinRedis

/// What a Redis client did, as metrics: sampled when the metrics are read,
/// free in between.
enum RedisMetrics {
    static func register(_ redis: RedisClient, in registry: MetricsRegistry) {
        registry.counter("napkin_redis_commands_total", help: "Redis commands sent (round trips asked for).") {
            Double(redis.statistics.commands)
        }
        registry.counter("napkin_redis_errors_total", help: "Redis commands that failed (error reply, unreachable, shut down).") {
            Double(redis.statistics.errors)
        }
        registry.counter("napkin_redis_reconnects_total", help: "Redis connections made anew after one broke.") {
            Double(redis.statistics.reconnects)
        }
    }
}
