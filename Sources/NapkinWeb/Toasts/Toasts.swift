import Observation

/// A page's short-lived messages: the presenter's side of napkin's toasts.
///
/// ``show(_:)`` adds a toast; it leaves after ``lifetime``, when the person
/// closes it (``dismiss(_:)``), or when newer toasts push it past
/// ``limit``, so a burst of messages never buries the page or grows the
/// session. A presenter holds one, and its view renders it with
/// ``WebViewController/toasts(_:content:)``:
///
/// ```swift
/// @MainActor @Observable
/// final class HomePresenter: Presentable {
///     let toasts = Toasts<String>()
/// }
///
/// // the interactor, when something happens:
/// await presenter.toasts.show("Order 12 is ready")
/// ```
///
/// Each toast's timer ends with it, and every timer ends with the
/// `Toasts` (when its tab is torn down). Timers run on the main actor and
/// are not work a settlement waits for: a form post that shows a toast is
/// settled once the toast is on the page.
@MainActor
@Observable
public final class Toasts<Content: Sendable> {
    /// The toasts on the page, oldest first.
    public private(set) var shown: [Toast<Content>] = []
    /// The most toasts shown at once.
    public let limit: Int
    /// How long a toast stays; `nil` keeps it until it is closed or pushed out.
    public let lifetime: Duration?

    @ObservationIgnored private var lastID = 0
    @ObservationIgnored private var timers: [Int: Task<Void, Never>] = [:]
    /// The views showing these toasts, told directly when one comes or goes
    /// (see ``WebViewController/toasts(_:content:)``).
    @ObservationIgnored private var watchers: [Watcher] = []

    private struct Watcher {
        weak var view: AnyObject?
        let changed: @MainActor () -> Void
    }

    /// Toasts of which at most `limit` (at least 1) show at once, each for
    /// `lifetime`. The default lifetime is the one napkin's client gives
    /// the toasts it makes itself.
    public init(limit: Int = 3, lifetime: Duration? = .seconds(6)) {
        self.limit = max(limit, 1)
        self.lifetime = lifetime
    }

    isolated deinit {
        for timer in timers.values { timer.cancel() }
    }

    /// Shows `content` as the newest toast, pushing the oldest out beyond
    /// ``limit``, and returns its id.
    @discardableResult
    public func show(_ content: Content) -> Int {
        lastID += 1
        let id = lastID
        shown.append(Toast(id: id, content: content))
        let overflow = max(shown.count - limit, 0)
        for gone in shown.prefix(overflow) { timers.removeValue(forKey: gone.id)?.cancel() }
        shown.removeFirst(overflow)
        if let lifetime {
            timers[id] = Task { [weak self] in
                guard (try? await Task.sleep(for: lifetime)) != nil else { return }
                self?.dismiss(id)
            }
        }
        tellWatchers()
        return id
    }

    /// Takes toast `id` off the page and ends its timer. An id that is not
    /// shown (closed twice, expired, made up) changes nothing.
    public func dismiss(_ id: Int?) {
        guard let id, let index = shown.firstIndex(where: { $0.id == id }) else { return }
        shown.remove(at: index)
        timers.removeValue(forKey: id)?.cancel()
        tellWatchers()
    }

    /// Tells `view` of every toast that comes or goes, until it is gone.
    /// Watching again changes nothing.
    func watch(by view: AnyObject, _ changed: @escaping @MainActor () -> Void) {
        guard !watchers.contains(where: { $0.view === view }) else { return }
        watchers.removeAll { $0.view == nil }
        watchers.append(Watcher(view: view, changed: changed))
    }

    private func tellWatchers() {
        for watcher in watchers where watcher.view != nil { watcher.changed() }
    }

    /// How many toasts have a timer running: never more than ``limit``.
    package var runningTimers: Int { timers.count }
}
