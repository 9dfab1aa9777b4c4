import NapkinHTTP
import napkin

/// One browser session: the root of its own napkin tree.
///
/// napkin creates a session on the first page request without a valid
/// cookie, builds the tree from the app's root builder and launches it into
/// the session (the session is the tree's ``LaunchHost``). The session keeps
/// the page's fragments, renders patches when they change and sends them to
/// every open tab.
@MainActor
public final class WebSession: LaunchHost {
    /// The path napkin's forms post to.
    public nonisolated static let actionPath = "/_napkin/action"
    /// The path of the session's event stream.
    public nonisolated static let eventsPath = "/_napkin/events"

    /// The session id, as in the `napkin_session` cookie.
    public let id: String
    /// The token every form of this session must carry.
    public let csrfToken: String
    /// The page path the tree was last navigated to.
    public internal(set) var currentPath = WebPath.root

    var router: (any LaunchRouting)?
    private(set) var root: WebViewController?
    var lastSeen: ContinuousClock.Instant

    private var fragments: [String: WeakFragment] = [:]
    private var dirty: [WebViewController] = []
    private var flushScheduled = false
    private var sequence: UInt64 = 0
    private var streams: [UInt64: PatchStream] = [:]
    private var nextStreamID: UInt64 = 0

    init(now: ContinuousClock.Instant) {
        id = SecureToken.make()
        csrfToken = SecureToken.make()
        lastSeen = now
    }

    /// The sequence number of the last patch this session made.
    public var lastEventID: UInt64 { sequence }

    /// The number of open event streams (tabs).
    public var streamCount: Int { streams.count }

    public func setRootViewControllable(_ viewControllable: any ViewControllable) {
        guard let viewController = viewControllable as? WebViewController else {
            preconditionFailure("the root napkin's view must be a WebViewController, not \(type(of: viewControllable))")
        }
        root?.unmount()
        root = viewController
        viewController.mount(in: self)
    }

    // MARK: - Fragments

    func register(_ fragment: WebViewController) {
        fragments[fragment.fragmentID] = WeakFragment(fragment)
    }

    func unregister(_ fragment: WebViewController) {
        fragments[fragment.fragmentID] = nil
    }

    /// The mounted fragment with `id`, if any.
    func fragment(id: String) -> WebViewController? {
        fragments[id]?.value
    }

    /// A fragment's state changed: patch it soon.
    func fragmentChanged(_ fragment: WebViewController) {
        dirty.append(fragment)
        guard !flushScheduled else { return }
        flushScheduled = true
        PatchFlusher.schedule(self)
    }

    /// Renders every changed fragment and sends the patches to every open
    /// tab. Only the outermost changed fragments are sent: their HTML holds
    /// their changed descendants. Without an open tab nothing is rendered
    /// now; the next page request renders it.
    func flush() {
        flushScheduled = false
        guard !dirty.isEmpty else { return }
        let changed = dirty
        dirty.removeAll()
        guard !streams.isEmpty else {
            // No tab to patch; still count the change, so a tab that connects
            // with an older event id is sent the whole page.
            sequence += 1
            return
        }
        var seen = Set<ObjectIdentifier>()
        let mounted = changed.filter { fragment in
            fragment.session === self && seen.insert(ObjectIdentifier(fragment)).inserted
        }
        let outermost = mounted.filter { fragment in
            !mounted.contains { other in other !== fragment && fragment.isDescendant(of: other) }
        }
        var patches: [Patch] = []
        for fragment in outermost {
            sequence += 1
            patches.append(Patch(id: fragment.fragmentID, html: fragment.render().rendered, sequence: sequence))
        }
        for stream in streams.values { stream.offer(patches) }
    }

    /// The whole page's content: the root fragment.
    func renderRoot() -> HTML {
        root?.render() ?? .empty
    }

    // MARK: - Streams

    /// Opens an event stream for one tab. When the tab's `Last-Event-ID` is
    /// behind, it first gets the whole page as one patch.
    func openStream(lastEventID: UInt64?) -> PatchStream {
        nextStreamID += 1
        let streamID = nextStreamID
        let stream = PatchStream { [weak self] in
            Task { @MainActor in self?.streamClosed(streamID) }
        }
        streams[streamID] = stream
        flush()
        if let root, lastEventID != sequence {
            stream.offer([Patch(id: root.fragmentID, html: root.render().rendered, sequence: sequence)])
        }
        return stream
    }

    private func streamClosed(_ id: UInt64) {
        streams[id] = nil
        // Idle time counts from when the last tab went away.
        lastSeen = max(lastSeen, ContinuousClock.now)
    }

    /// Tears the session down: the whole tree is deactivated (every bound
    /// task cancelled), every fragment unmounted, every stream ended.
    func terminate() async {
        let streams = Array(self.streams.values)
        self.streams.removeAll()
        for stream in streams { stream.close() }
        await router?.terminate()
        root?.unmount()
        root = nil
        router = nil
        fragments.removeAll()
        dirty.removeAll()
    }
}

/// Flushes every session with changes in one main-actor job, so a change
/// that reaches thousands of sessions costs one hop, not one per session.
@MainActor
enum PatchFlusher {
    private static var pending: [WebSession] = []

    static func schedule(_ session: WebSession) {
        pending.append(session)
        guard pending.count == 1 else { return }
        Task { @MainActor in flushAll() }
    }

    private static func flushAll() {
        let sessions = pending
        pending.removeAll()
        for session in sessions { session.flush() }
    }
}

/// A fragment the session can find by id without keeping it alive.
struct WeakFragment {
    weak var value: WebViewController?
    init(_ value: WebViewController) { self.value = value }
}
