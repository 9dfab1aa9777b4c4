import NapkinWeb

/// What Rib House adds to napkin's metrics: whether this process holds the
/// pit's lease, and how many diners are in the house. Both sampled: read
/// when the metrics are, free in between. `RibHouseApp.make` registers them
/// when the configuration names a registry.
enum RibHouseMetrics {
    static func register(in registry: MetricsRegistry, pit: PitService, diners: Presence<Diner>) {
        registry.gauge("napkin_lease_held", help: "Whether this process holds the lease (1) or not (0).", labels: ["lease": "pit"]) {
            pit.holdsLease ? 1 : 0
        }
        registry.gauge("napkin_presence_entries", help: "Keys present on a presence topic, across every process.", labels: ["topic": "diners"]) {
            Double(diners.count)
        }
    }
}
