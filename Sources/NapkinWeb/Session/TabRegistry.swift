/// Every tab of an app's live sessions: how many there are, and the tabs
/// without an open stream in the order they were last used, so that the
/// sweep and the server-wide cap find what to release without looking at
/// any tab twice.
///
/// A tab is in the list while it belongs to a held session and has no
/// stream; the sweep walks from its oldest end and stops at the first tab
/// still in its grace period.
@MainActor
final class TabRegistry {
    /// At most this many tabs across every session.
    let capacity: Int
    /// The number of tabs of the sessions held.
    private(set) var count = 0
    private var unwatched = RecencyList<WebTab>()

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// `tab` joined a held session.
    func added(_ tab: WebTab) {
        guard !tab.registered else { return }
        tab.registered = true
        count += 1
        if tab.streamCount == 0 { list(tab) }
    }

    /// `tab` left its session.
    func removed(_ tab: WebTab) {
        guard tab.registered else { return }
        tab.registered = false
        count -= 1
        unlist(tab)
    }

    /// `tab` served a request or lost its last stream: it is the most
    /// recently used.
    func used(_ tab: WebTab) {
        guard tab.listed else { return }
        unwatched.moveToFront(tab)
    }

    /// `tab` opened or closed a stream.
    func streamsChanged(_ tab: WebTab) {
        guard tab.registered else { return }
        if tab.streamCount == 0 { list(tab) } else { unlist(tab) }
    }

    /// The tabs without a stream past their `grace`, oldest first, that
    /// nobody is using: a session's most recent tab too, for nobody is
    /// looking at it either. The walk stops at the first tab within the
    /// shorter grace; new tabs within the longer one are stepped over.
    func expired(now: ContinuousClock.Instant, grace: TabGrace) -> [WebTab] {
        var found: [WebTab] = []
        var next = unwatched.tail
        while let tab = next, now - tab.lastUsed >= grace.streamed {
            next = tab.newer
            if tab.isPastGrace(now: now, grace: grace) { found.append(tab) }
        }
        return found
    }

    /// The tabs to release so that `adding` more fit under the cap: the
    /// least recently used without a stream that nobody is using. Fewer
    /// when there are not that many (every other tab has a stream: the
    /// server's connection limit bounds those).
    func overflow(adding: Int) -> [WebTab] {
        var excess = count + adding - capacity
        var found: [WebTab] = []
        var next = unwatched.tail
        while excess > 0, let tab = next {
            next = tab.newer
            if tab.users == 0 {
                found.append(tab)
                excess -= 1
            }
        }
        return found
    }

    private func list(_ tab: WebTab) {
        guard !tab.listed else { return unwatched.moveToFront(tab) }
        tab.listed = true
        unwatched.pushFront(tab)
    }

    private func unlist(_ tab: WebTab) {
        guard tab.listed else { return }
        tab.listed = false
        unwatched.remove(tab)
    }
}
