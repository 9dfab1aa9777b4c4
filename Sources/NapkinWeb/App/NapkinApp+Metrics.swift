import NapkinHTTP

extension NapkinApp {
    /// Counts the router's requests in `registry`, copies the live counts
    /// into it whenever it is read, and serves `GET /metrics` on the app's
    /// listener when a token is configured.
    nonisolated func mountMetrics(_ registry: MetricsRegistry, on router: inout HTTPRouter) {
        router.measure(in: registry)
        registry.onSnapshot { [weak self] in
            await self?.copyCounts()
        }
        if let token = configuration.metricsToken {
            MetricsEndpoint(registry: registry, token: token).mount(on: &router)
        }
    }

    /// Sessions, tabs and open streams, into their gauges.
    private func copyCounts() {
        guard let metrics else { return }
        metrics.sessions.record(store.count)
        metrics.tabs.record(store.tabs.count)
        metrics.streams.record(store.all.reduce(0) { $0 + $1.streamCount })
    }

    /// A main-actor timer every quarter second, recording how late it
    /// fires: how long other main-actor work keeps it waiting.
    func probeLag(into histogram: Histogram) -> Task<Void, Never> {
        Task { @MainActor in await histogram.recordLateness(every: .milliseconds(250)) }
    }
}
