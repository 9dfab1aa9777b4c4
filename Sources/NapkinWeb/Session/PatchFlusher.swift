import NapkinHTTP

/// Flushes every tab with changes in one main-actor job, so a change that
/// reaches thousands of tabs costs one hop, not one per tab.
@MainActor
enum PatchFlusher {
    private static var pending: [WebTab] = []

    static func schedule(_ tab: WebTab) {
        pending.append(tab)
        guard pending.count == 1 else { return }
        Task { @MainActor in flushAll() }
    }

    private static func flushAll() {
        let tabs = pending
        pending.removeAll()
        // The tabs' streams are woken together once every patch is made.
        StreamWakeups.coalescing {
            for tab in tabs { tab.flush() }
        }
    }
}
