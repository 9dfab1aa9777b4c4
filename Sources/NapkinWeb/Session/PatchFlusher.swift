import NapkinHTTP

/// Flushes every tab with changes in one main-actor job, so a change that
/// reaches thousands of tabs costs one hop, not one per tab.
@MainActor
enum PatchFlusher {
    private static var pending: [WebTab] = []
    /// When the first change of the pending tabs was made.
    private static var firstChange = ContinuousClock.now

    static func schedule(_ tab: WebTab) {
        pending.append(tab)
        guard pending.count == 1 else { return }
        firstChange = .now
        Task { @MainActor in flushAll() }
    }

    private static func flushAll() {
        let tabs = pending
        let changed = firstChange
        pending.removeAll()
        // The apps whose streams were offered patches (almost always one).
        var patched: [AppMetrics] = []
        // One burst: the tabs' streams are woken once every patch is made.
        EventBurst.offering {
            for tab in tabs where tab.flush() {
                if let metrics = tab.session?.metrics, !patched.contains(where: { $0 === metrics }) { patched.append(metrics) }
            }
        }
        guard !patched.isEmpty else { return }
        // One clock read for the whole burst: its lag is its first change's.
        let offered = ContinuousClock.now
        for metrics in patched { metrics.fannedOut(from: changed, to: offered) }
    }
}
