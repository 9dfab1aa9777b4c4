import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import napkin

/// One open tab (one page view) of a session: its own path, its own napkin
/// tree launched from the app's root builder, its fragments and its event
/// streams.
///
/// Navigating or posting in one tab never changes what another shows; what
/// tabs share lives in the session's scope (who is signed in), and reaches
/// every tab through that scope's broadcasters.
@MainActor
public final class WebTab: LaunchHost, RecencyLinked {
    /// The tab's id, as in the page's `data-napkin-tab` and the stream URL.
    public let id: String
    /// The session this tab belongs to.
    public private(set) weak var session: WebSession?
    /// The page path the tab's tree was last navigated to.
    public internal(set) var currentPath = WebPath.root

    var router: (any LaunchRouting)?
    private(set) var root: WebViewController?
    /// When the tab last served a request or lost its last stream.
    var lastUsed: ContinuousClock.Instant
    /// No page of the tab has opened its event stream or said goodbye yet:
    /// its script may still be loading, so it gets the longer grace.
    var awaitsFirstStream = true
    /// A post from a page without JavaScript ran here: the page load its
    /// redirect leads to shows this tab (with the form's errors), not a new one.
    var awaitsRedirect = false
    /// Requests working with the tab now: it is not released under them
    /// (a page being rendered from a tree torn down meanwhile would be a 404).
    var users = 0
    /// Turns at navigating the tree: one navigation at a time.
    private let navigations = Turns()
    /// The tab registry's list links, and whether the tab is registered
    /// and listed there (see `TabRegistry`).
    var newer: WebTab?
    var older: WebTab?
    var registered = false
    var listed = false

    private var fragments = SmallMap<String, WeakFragment>()
    private var dirty: [WebViewController] = []
    private var flushScheduled = false
    /// A live navigation is under way: its response will carry the page, so
    /// changes wait for it instead of going down the streams.
    var holdingPatches = false
    private var sequence: UInt64 = 0
    /// Open streams by their session-wide number (oldest is lowest).
    private(set) var streams = SmallMap<UInt64, Channel<EventFrame>>()

    init(session: WebSession, now: ContinuousClock.Instant, id: String? = nil) {
        self.id = id ?? SecureToken.make()
        self.session = session
        lastUsed = now
    }

    /// The URL of this tab's event stream.
    public var streamPath: String { "\(WebSession.eventsPath)?\(WireProtocol.Query.tab)=\(id)" }

    /// The sequence number of the last patch this tab made.
    public var lastEventID: UInt64 { sequence }

    /// The number of open event streams of this tab.
    public var streamCount: Int { streams.count }

    /// A snapshot of the tab's napkin tree, once it is launched.
    public var snapshot: TreeSnapshot? { router.map { TreeSnapshot(router: $0) } }

    /// Whether nobody views or uses the tab, and has not for its grace:
    /// `grace.streamed` since its last stream closed, or `grace.new` since
    /// its last page view while it awaits its first stream.
    func isPastGrace(now: ContinuousClock.Instant, grace: TabGrace) -> Bool {
        users == 0 && streamCount == 0 && now - lastUsed >= (awaitsFirstStream ? grace.new : grace.streamed)
    }

    /// Shows `viewControllable`, a ``WebViewController``, as the tab's page:
    /// the root router calls it when it is launched.
    public func setRootViewControllable(_ viewControllable: any ViewControllable) {
        let viewController = WebViewController.checked(viewControllable, as: "the root napkin's view")
        root?.unmount()
        root = viewController
        viewController.mount(in: self)
    }

    // MARK: - Fragments

    func register(_ fragment: WebViewController) {
        fragments[fragment.fragmentID] = WeakFragment(fragment)
    }

    func unregister(_ fragment: WebViewController) {
        // Another fragment may hold the same place (and id) by now.
        guard fragments[fragment.fragmentID]?.value === fragment else { return }
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

    /// Renders every changed fragment and sends the patches to the tab's
    /// streams. Only the outermost changed fragments are sent: their HTML
    /// holds their changed descendants. Without an open stream nothing is
    /// rendered now; the next page request renders it. Whether a patch was
    /// offered to a stream.
    @discardableResult
    func flush() -> Bool {
        flushScheduled = false
        guard !dirty.isEmpty, !holdingPatches else { return false }
        let changed = dirty
        dirty.removeAll()
        guard !streams.isEmpty else {
            // No stream to patch; still count the change, so a stream that
            // connects with an older event id is sent the whole page.
            sequence += 1
            return false
        }
        var seen = Set<ObjectIdentifier>()
        let mounted = changed.filter { fragment in
            fragment.tab === self && seen.insert(ObjectIdentifier(fragment)).inserted
        }
        let outermost = mounted.filter { fragment in
            !mounted.contains { other in other !== fragment && fragment.isDescendant(of: other) }
        }
        for fragment in outermost {
            sequence += 1
            let patch = Patch(id: fragment.fragmentID, html: fragment.render().rendered)
            offer(patch.frame.numbered(sequence), key: patch.id)
        }
        return !outermost.isEmpty
    }

    /// Offers `event` to every stream of the tab, counting what was taken.
    private func offer(_ event: EventFrame, key: String) {
        var taken = 0
        for stream in streams.values where stream.offer(event, key: key) { taken += 1 }
        session?.metrics?.patched(taken, bytes: taken * event.byteCount)
    }

    /// Sends a shared fragment's patch, encoded once for every tab. A tab
    /// in a live navigation skips it: the page it answers is rendered
    /// after, with the new HTML. Whether it was offered to a stream.
    @discardableResult
    func sendShared(id: String, frame: EventFrame) -> Bool {
        guard !holdingPatches else { return false }
        sequence += 1
        guard !streams.isEmpty else { return false }
        offer(frame.numbered(sequence), key: id)
        return true
    }

    /// Takes the pending changes as shown without patching the streams: the
    /// response being rendered holds the whole page, newer than them.
    func absorbChanges() {
        holdingPatches = false
        flushScheduled = false
        dirty.removeAll()
        sequence += 1
    }

    /// The whole page's content: the root fragment.
    func renderRoot() -> HTML {
        root?.render() ?? .empty
    }

    /// The title the tab's fragments give the page, if any.
    var pageTitle: String? { root?.deepestPageTitle() }

    /// Waits for the tab's turn to navigate: one navigation at a time, in
    /// the order they came, so two requests naming one tab (a client that
    /// sends them at once) never move its routers under each other. Pair
    /// with ``endNavigation()``.
    func beginNavigation() async {
        await navigations.begin()
    }

    /// Takes the turn of a tab nobody has navigated yet, at once.
    func beginFirstNavigation() {
        precondition(navigations.tryBegin(), "a new tab is already being navigated")
    }

    /// Lets the next waiting navigation go.
    func endNavigation() {
        navigations.end()
    }

    /// Moves the tree to `path`; whether some napkin claims it.
    func navigate(to path: WebPath) async -> Bool {
        if currentPath != path {
            currentPath = path
            // Forms embed the page path to return to.
            root?.forgetRenders()
        }
        guard let router = router as? any WebRouting else { return path.isRoot }
        return await router.navigate(to: path)
    }

    /// Without an open stream the tab keeps only its page between requests:
    /// enough to answer an unchanged page at once, and a change anywhere
    /// below still drops it.
    func trimRenders() {
        guard streams.isEmpty, let root else { return }
        for child in root.shownChildren { child.forgetRenders() }
    }

    // MARK: - Streams

    /// Adds a stream numbered `number`. When `lastEventID` is behind, it
    /// first gets the whole page as one patch.
    func addStream(_ stream: Channel<EventFrame>, number: UInt64, lastEventID: UInt64?) {
        // Pending changes go to the streams already open; this one is sent
        // the whole page as it is now, when it is behind.
        flush()
        streams[number] = stream
        awaitsFirstStream = false
        if let root, lastEventID != sequence {
            let page = Patch(id: root.fragmentID, html: root.render().rendered)
            stream.offer(page.frame.numbered(sequence), key: page.id)
        }
        // The page is in the browser now; what changes next is rendered
        // again when it changes. Keeping every fragment's HTML (the page
        // holds its children's, and they their own) would cost each live tab
        // its page several times over.
        root?.forgetRenders()
    }

    /// The session's id and token rotated: takes every open stream out of
    /// the tab, unended (they were opened with the old id and get no more
    /// patches), and makes the page whole again for the next one, since
    /// every form on it carries the old token.
    func sessionRotated() -> [Channel<EventFrame>] {
        let retired = streams.values
        streams.removeAll()
        root?.forgetRenders()
        sequence += 1
        return Array(retired)
    }

    /// Removes the stream numbered `number`; whether it was here.
    func removeStream(_ number: UInt64) -> Channel<EventFrame>? {
        streams.removeValue(forKey: number)
    }

    /// Tears the tab down: its tree is deactivated (every bound task
    /// cancelled), every fragment unmounted, every stream ended.
    func terminate() async {
        let streams = self.streams.values
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

/// A fragment a tab can find by id without keeping it alive.
struct WeakFragment {
    weak var value: WebViewController?
    init(_ value: WebViewController) { self.value = value }
}
