import Foundation

/// What the dashboard's overview shows: the watched app's sessions, tabs
/// and streams, and the sessions used last. Read on the main actor, where
/// the app keeps them, as one consistent picture.
struct OverviewReading: Equatable, Encodable, Sendable {
    /// One listed session.
    struct SessionRow: Equatable, Encodable, Sendable {
        let handle: String
        let tabs: Int
        let streams: Int
        /// The page its most recent tab is on.
        let path: String
        /// Whole seconds since its last request.
        let idleSeconds: Int
    }

    /// One process of the cluster.
    struct ProcessRow: Equatable, Encodable, Sendable {
        let host: String
        let pid: Int32
        /// When it started, as ISO 8601.
        let started: String
        let isThis: Bool
    }

    /// How many sessions the overview lists, most recently used first.
    static let listed = 20

    var sessions = 0
    var tabs = 0
    var streams = 0
    var recent: [SessionRow] = []
    var processes: [ProcessRow] = []
    /// The app's metrics, when the dashboard has them.
    var metrics: MetricsReading?

    init() {}

    @MainActor
    init(app: NapkinApp, handles: SessionHandles, processes cards: [ProcessCard], metrics: MetricsReading? = nil) {
        self.metrics = metrics
        let iso = ISO8601DateFormatter()
        processes = cards.map { card in
            ProcessRow(
                host: card.host, pid: card.pid, started: iso.string(from: Date(timeIntervalSince1970: Double(card.started))),
                isThis: card == .current)
        }
        let all = app.store.all
        let now = app.store.now
        sessions = all.count
        for session in all {
            tabs += session.tabs.count
            for tab in session.tabs { streams += tab.streamCount }
        }
        let latest = all.sorted { $0.lastSeen > $1.lastSeen }.prefix(Self.listed)
        recent = latest.map { session in
            SessionRow(
                handle: handles.handle(of: session.id), tabs: session.tabs.count,
                streams: session.tabs.reduce(0) { $0 + $1.streamCount }, path: session.currentPath.description,
                idleSeconds: Int((now - session.lastSeen).components.seconds))
        }
    }
}
