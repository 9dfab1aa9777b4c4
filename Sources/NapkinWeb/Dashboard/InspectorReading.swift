/// What the dashboard's inspector shows of one session: each tab's page,
/// streams and napkin tree, read on the main actor.
struct InspectorReading: Equatable, Encodable, Sendable {
    /// One tab of the session.
    struct TabRow: Equatable, Encodable, Sendable {
        /// Its place among the session's tabs, oldest first, from 1 (a tab's
        /// id is not shown: with the cookie it opens the tab's stream).
        let number: Int
        let path: String
        let streams: Int
        let tree: TreeSnapshot?
    }

    let handle: String
    /// Whether the session is held by the app now.
    let found: Bool
    let tabs: [TabRow]

    @MainActor
    init(handle: String, app: NapkinApp, handles: SessionHandles) {
        self.handle = handle
        let session = handles.session(handle, in: app)
        found = session != nil
        tabs = (session?.tabs ?? []).enumerated().map { index, tab in
            TabRow(number: index + 1, path: tab.currentPath.description, streams: tab.streamCount, tree: tab.snapshot)
        }
    }
}
