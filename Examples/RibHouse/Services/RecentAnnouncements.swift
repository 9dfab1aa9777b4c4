import Synchronization
import napkin

/// The last few announcements heard from any process, newest last, for
/// `GET /api/announcements`. It follows the app's broadcaster from
/// ``RibHouseApp/start()``.
final class RecentAnnouncements: Sendable {
    /// How many are kept.
    static let limit = 20

    private let state = Mutex<(kept: [Announcement], follower: Task<Void, Never>?)>(([], nil))

    /// The announcements kept, oldest first.
    var all: [Announcement] { state.withLock { $0.kept } }

    /// Keeps every announcement `broadcaster` sends from now until ``stop()``.
    func follow(_ broadcaster: EventBroadcaster<Announcement>) async {
        let subscription = await broadcaster.subscribe()
        let follower = Task { [weak self] in
            for await announcement in subscription {
                self?.state.withLock { $0.kept = Array(($0.kept + [announcement]).suffix(Self.limit)) }
            }
        }
        state.withLock { $0.follower = follower }
    }

    func stop() {
        state.withLock { $0.follower }?.cancel()
    }
}
