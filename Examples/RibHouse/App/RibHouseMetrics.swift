import NapkinHTTP
import NapkinRedis
import NapkinStorage

/// What Rib House adds to napkin's metrics: whether this process holds the
/// pit's lease, what its Redis client did, and how many diners are in the
/// house. All sampled: read when the metrics are, free in between.
enum RibHouseMetrics {
    static func register(in registry: MetricsRegistry, redis: RedisClient?, pit: PitService) {
        registry.gauge("napkin_lease_held", help: "Whether this process holds the lease (1) or not (0).", labels: ["lease": "pit"]) {
            pit.holdsLease ? 1 : 0
        }
        guard let redis else { return }
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

    /// Registers how many diners are present, across every process:
    /// `RibHouseApp.make` calls it when the configuration names a registry.
    static func register(in registry: MetricsRegistry, diners: Presence<Diner>) {
        registry.gauge("napkin_presence_entries", help: "Keys present on a presence topic, across every process.", labels: ["topic": "diners"]) {
            Double(diners.count)
        }
    }
}
