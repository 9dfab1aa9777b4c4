import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import napkin

/// HTML that every tab shows alike, rendered once per change and sent to
/// every tab that shows it as one patch.
///
/// A presenter renders per tab: one change to app-wide state (a live
/// figure in every page's header) wakes one interactor, one presenter and
/// one observation per open tab, and renders the same HTML ten thousand
/// times. When what is shown depends on nothing but that state, make it a
/// shared fragment: it follows the state once for the whole process,
/// renders each new value once, and hands the encoded patch to every tab
/// showing it.
///
/// ```swift
/// // Once, in the app's component:
/// let pitLine = SharedFragment("pit", initial: PitSimulator.opening()) { pit in
///     "<p class=\"pit-header\">\(pit.headline)</p>"
/// }
/// pitLine.follow(await pitService.stateStream())
///
/// // In any view's body:
/// override func body() -> HTML {
///     "<header>\(shared(pitLine))</header>"
/// }
/// ```
///
/// `render` sees the value only: nothing of the session or the tab. A
/// value whose HTML is the same as the last one's sends nothing. Use it for
/// display-only state; what depends on who is looking belongs in a
/// presenter. Show it from ``WebViewController/body()`` itself (not inside a
/// region), at most once per fragment.
@MainActor
public final class SharedFragment<Value: Sendable>: SharedFragmentViewers {
    /// The name, part of each shown copy's id and its `data-napkin`.
    public let name: String
    /// The value shown now.
    public private(set) var value: Value
    /// The HTML shown now.
    public private(set) var html: HTML
    private let render: @MainActor (Value) -> HTML
    private var viewers: [ObjectIdentifier: Viewer] = [:]
    private let following = TaskSlot()
    /// When a followed value was last shown, the value held for the end of
    /// the interval, and the task that shows it then.
    private var lastShown: ContinuousClock.Instant?
    private var held: Value?
    private var heldShow: Task<Void, Never>?

    /// One fragment that shows this shared fragment, and the id it shows it
    /// under. A class: walking ten thousand of them then retains each,
    /// where copying a struct would copy its weak reference.
    private final class Viewer {
        weak var view: WebViewController?
        let id: String

        init(view: WebViewController, id: String) {
            self.view = view
            self.id = id
        }
    }

    /// A shared fragment named `name` showing `initial`, rendered by `render`.
    public init(_ name: String, initial: Value, render: @escaping @MainActor (Value) -> HTML) {
        self.name = name
        self.render = render
        value = initial
        html = render(initial)
    }

    deinit {
        following.stop()
    }

    /// The number of fragments showing it now.
    public var viewerCount: Int { viewers.count }

    /// Shows `newValue` on every tab showing this fragment: renders it once
    /// and, when its HTML changed, sends every such tab the patch.
    public func update(_ newValue: Value) {
        apply(newValue)
    }

    /// ``update(_:)``; whether the HTML changed (and so was sent).
    @discardableResult
    private func apply(_ newValue: Value) -> Bool {
        let changed = ContinuousClock.now
        value = newValue
        let next = render(newValue)
        guard next != html else { return false }
        html = next
        var frames: [String: EventFrame] = [:]
        var gone: [ObjectIdentifier] = []
        // The app of the first tab offered the patch: a shared fragment is one app's.
        var metrics: AppMetrics?
        // Every patch is offered before any stream is woken.
        EventBurst.offering {
            for (key, viewer) in viewers {
                // A view forgets what it no longer shows; one released
                // without leaving the page is dropped here.
                guard let view = viewer.view, let tab = view.tab else {
                    gone.append(key)
                    continue
                }
                view.forgetRendersUpward()
                let frame = frames[viewer.id] ?? EventFrame(
                    event: WireProtocol.Event.patch, data: Patch(id: viewer.id, html: wrapped(id: viewer.id).rendered).data)
                frames[viewer.id] = frame
                if tab.sendShared(id: viewer.id, frame: frame), metrics == nil { metrics = tab.session?.metrics }
            }
        }
        metrics?.fannedOut(from: changed, to: .now)
        for key in gone { viewers[key] = nil }
        return true
    }

    /// Shows every value of `subscription` (a broadcaster's) until this
    /// fragment goes or ``stopFollowing()``: one subscription for the whole
    /// process, however many tabs show it.
    ///
    /// With `interval`, values that come faster are shown at most once per
    /// `interval`: at once when the last change shown is older, else the
    /// latest when the interval is up. A burst (a crowd signing in) then
    /// costs each tab one patch per interval, not one per value. Values are
    /// taken as they come either way, so a sender awaiting delivery (or a
    /// settling form post) never waits for the interval.
    public func follow(_ subscription: Subscription<Value>, atMostEvery interval: Duration = .zero) {
        endHeld()
        let task = Task { [weak self] in
            for await value in subscription {
                guard let self else { return }
                self.show(value, atMostEvery: interval)
            }
        }
        following.replace(with: task)
    }

    /// Stops following what ``follow(_:atMostEvery:)`` started.
    public func stopFollowing() {
        following.stop()
        endHeld()
    }

    /// Shows `value` now, or holds it for the end of the interval.
    private func show(_ value: Value, atMostEvery interval: Duration) {
        let now = ContinuousClock.now
        if heldShow == nil, lastShown.map({ now - $0 >= interval }) ?? true {
            // A value that changes nothing (the replayed current one) is no show.
            if apply(value) { lastShown = now }
            return
        }
        held = value
        guard heldShow == nil, let lastShown else { return }
        heldShow = Task { [weak self] in
            try? await Task.sleep(until: lastShown + interval, clock: .continuous)
            guard !Task.isCancelled, let self, let value = self.held else { return }
            self.held = nil
            self.heldShow = nil
            self.lastShown = .now
            self.apply(value)
        }
    }

    private func endHeld() {
        heldShow?.cancel()
        heldShow = nil
        held = nil
    }

    /// The HTML `view` shows under `id`, and notes that it does.
    func shown(by view: WebViewController, id: String) -> HTML {
        let key = ObjectIdentifier(view)
        let known = viewers[key].map { $0.view === view && $0.id == id } ?? false
        if !known { viewers[key] = Viewer(view: view, id: id) }
        return wrapped(id: id)
    }

    func forget(_ view: WebViewController) {
        viewers[ObjectIdentifier(view)] = nil
    }

    private func wrapped(id: String) -> HTML {
        "<div class=\"napkin\" id=\"\(id)\" data-napkin=\"\(name)\">\(html)</div>"
    }
}

/// What a view tells the shared fragments it shows when it stops showing
/// them (it left the page, or its body no longer asks for one), so a
/// fragment's list of viewers never outgrows the tabs that are open.
@MainActor
protocol SharedFragmentViewers: AnyObject {
    func forget(_ view: WebViewController)
}
