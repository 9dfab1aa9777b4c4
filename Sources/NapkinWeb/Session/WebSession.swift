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

    /// The session id, as in the `napkin_session` cookie. It changes when
    /// the app calls ``rotateID()`` (at login and logout).
    public private(set) var id: String
    /// The token every form of this session must carry.
    public let csrfToken: String
    /// The page path the tree was last navigated to.
    public internal(set) var currentPath = WebPath.root

    var router: (any LaunchRouting)?
    private(set) var root: WebViewController?
    var lastSeen: ContinuousClock.Instant

    /// The store holding this session (none while it is being tried out
    /// for a request that may not keep it).
    weak var store: SessionStore?
    /// The store's recency list links, and which list the session is in.
    var newer: WebSession?
    var older: WebSession?
    var watching = false
    /// Whether the session was used again after its first page.
    var returned = false

    private var fragments: [String: WeakFragment] = [:]
    private var dirty: [WebViewController] = []
    private var flushScheduled = false
    private var sequence: UInt64 = 0
    private var streams: [UInt64: Channel<[UInt8]>] = [:]
    private var nextStreamID: UInt64 = 0
    private let maxStreams: Int

    init(now: ContinuousClock.Instant, maxStreams: Int = 8) {
        id = SecureToken.make()
        csrfToken = SecureToken.make()
        lastSeen = now
        self.maxStreams = max(1, maxStreams)
    }

    /// Gives the session a new id, so an id somebody else knew (planted
    /// before login, or seen before logout) stops working at once. The
    /// response to the request that rotated it carries the new cookie; open
    /// tabs keep their streams. Call it when who is signed in changes —
    /// usually through ``rotateCurrentID()``.
    public func rotateID() {
        let fresh = SecureToken.make()
        store?.rotate(self, to: fresh)
        id = fresh
    }

    /// The session of the request being handled: set while napkin runs a
    /// page request or a form's action, so code below the action (an
    /// interactor signing a user in) can reach it.
    public nonisolated static var current: WebSession? { RequestSession.current }

    /// Rotates the id of the session whose request is being handled (see
    /// ``rotateID()``); does nothing outside a request.
    public nonisolated static func rotateCurrentID() async {
        guard let session = current else { return }
        await session.rotateID()
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
        for fragment in outermost {
            sequence += 1
            let patch = Patch(id: fragment.fragmentID, html: fragment.render().rendered, sequence: sequence)
            // Encoded once, shared by every tab.
            let event = patch.event
            for stream in streams.values { stream.offer(event, key: patch.id) }
        }
    }

    /// The whole page's content: the root fragment.
    func renderRoot() -> HTML {
        root?.render() ?? .empty
    }

    // MARK: - Streams

    /// Opens an event stream for one tab. When the tab's `Last-Event-ID` is
    /// behind, it first gets the whole page as one patch. A session holds at
    /// most `maxStreams` streams: past that the oldest is told it was
    /// replaced (`event: end`) and closed.
    func openStream(lastEventID: UInt64?) -> Channel<[UInt8]> {
        nextStreamID += 1
        let streamID = nextStreamID
        // A patch per fragment at most (a newer one replaces an unsent one);
        // a tab so far behind that the page's fragments overflow this ends
        // its stream, and reconnects to a fresh copy of the page.
        let stream = Channel<[UInt8]>(policy: .finishWhenFull(capacity: 256))
        stream.onTermination { [weak self] in
            Task { @MainActor in self?.streamClosed(streamID) }
        }
        while streams.count >= maxStreams, let oldest = streams.keys.min() {
            streams.removeValue(forKey: oldest).map(Self.supersede)
        }
        // Pending changes go to the tabs already open; this one is sent the
        // whole page as it is now, when it is behind.
        flush()
        streams[streamID] = stream
        store?.streamsChanged(self)
        if let root, lastEventID != sequence {
            let page = Patch(id: root.fragmentID, html: root.render().rendered, sequence: sequence)
            stream.offer(page.event, key: page.id)
        }
        return stream
    }

    /// Ends a stream that a newer tab pushed out, telling its client why
    /// so it does not reconnect and push another tab out in turn.
    private static func supersede(_ stream: Channel<[UInt8]>) {
        stream.offer(ServerSentEvent(event: "end", data: "superseded").encodedBytes)
        stream.finish()
    }

    private func streamClosed(_ id: UInt64) {
        guard streams.removeValue(forKey: id) != nil else { return }
        // Idle time counts from when the last tab went away (the store sets it).
        store?.streamsChanged(self)
        for waiter in streamWaiters where waiter.count == streams.count { waiter.continuation.resume() }
        streamWaiters.removeAll { $0.count == streams.count }
    }

    private var streamWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Waits until the session has exactly `count` open streams (for tests
    /// of stream lifecycles: a closed stream leaves the session on the next
    /// main-actor turn).
    func waitForStreamCount(_ count: Int) async {
        if streams.count == count { return }
        await withCheckedContinuation { streamWaiters.append((count, $0)) }
    }

    /// Tears the session down: the whole tree is deactivated (every bound
    /// task cancelled), every fragment unmounted, every stream ended.
    func terminate() async {
        let streams = Array(self.streams.values)
        self.streams.removeAll()
        for stream in streams { stream.finish() }
        await router?.terminate()
        root?.unmount()
        root = nil
        router = nil
        fragments.removeAll()
        dirty.removeAll()
    }
}

/// The task-local behind ``WebSession/current`` (a task-local cannot live
/// in a main-actor class).
enum RequestSession {
    @TaskLocal static var current: WebSession?
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
