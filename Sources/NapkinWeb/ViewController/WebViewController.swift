import Foundation
import NapkinHTTP
import napkin

/// The web `ViewControllable`: a napkin's view as an HTML fragment.
///
/// Subclass it, render the presenter's state in ``body()``, embed children
/// in named slots, and declare the actions its forms post:
///
/// ```swift
/// final class CounterViewController: WebViewController {
///     weak var listener: (any CounterPresentableListener)?
///     let presenter: CounterPresenter
///
///     init(presenter: CounterPresenter) {
///         self.presenter = presenter
///         super.init()
///         action("increment") { [weak self] in await self?.listener?.didTapIncrement() }
///     }
///
///     override func body() -> HTML {
///         "<p>\(presenter.count)</p>\(form("increment", content: "<button>+1</button>"))"
///     }
/// }
/// ```
///
/// napkin wraps the body in `<div class="napkin" id="…" data-napkin="…">`
/// with a stable fragment id. While the fragment is on a page, napkin
/// observes what ``body()`` read (Observation): when any of it changes, the
/// fragment re-renders and its new HTML is sent to the session's open tabs.
@MainActor
open class WebViewController: ViewControllable {
    /// The id of this fragment's element, stable while it lives.
    public let fragmentID: String

    /// The napkin's name, shown as `data-napkin` and in JSON snapshots.
    open var napkinName: String {
        let name = String(describing: type(of: self))
        return name.hasSuffix("ViewController") ? String(name.dropLast("ViewController".count)) : name
    }

    private var slots: [String: WebViewController] = [:]
    private var actions: [String: WebAction] = [:]
    private(set) weak var parent: WebViewController?
    private(set) weak var session: WebSession?
    private var cachedHTML: HTML?
    /// Whether an observation of ``body()`` is registered and has not fired.
    /// There is at most one at a time: a render while it is armed reads the
    /// same state and needs no new one (which would pile up in the
    /// observed objects until they next change).
    private var observing = false

    /// Creates a view controller with a fresh fragment id.
    public init() {
        fragmentID = FragmentID.make()
    }

    /// The fragment's content, from the presenter's state. Override it.
    ///
    /// Keep it cheap and free of side effects: napkin calls it again
    /// whenever what it read changes.
    open func body() -> HTML {
        .empty
    }

    // MARK: - Children

    /// Shows `child`'s fragment in the slot `name`, replacing what was there.
    /// Call it from the router when it attaches the child napkin.
    public final func show(_ child: any ViewControllable, in name: String) {
        guard let child = child as? WebViewController else {
            preconditionFailure("\(type(of: child)) is not a WebViewController")
        }
        if let old = slots[name], old === child { return }
        slots[name]?.unmount()
        slots[name] = child
        child.parent = self
        if let session { child.mount(in: session) }
        invalidate()
    }

    /// Empties the slot `name`. Call it from the router when it detaches the
    /// child napkin shown there.
    public final func clear(slot name: String) {
        guard let child = slots.removeValue(forKey: name) else { return }
        child.unmount()
        invalidate()
    }

    /// The child fragment in slot `name`, or nothing. Use it in ``body()``.
    public final func slot(_ name: String) -> HTML {
        slots[name]?.render() ?? .empty
    }

    /// The children shown in slots, by slot name.
    public final var children: [String: WebViewController] { slots }

    // MARK: - Actions

    /// Declares the action `name`, whose form fields decode into `Input`.
    ///
    /// The handler runs on the main actor; it should call the napkin's
    /// listener (the interactor) and return.
    public final func action<Input: Decodable>(
        _ name: String,
        as input: Input.Type = Input.self,
        _ handler: @escaping @MainActor (Input) async throws -> Void
    ) {
        actions[name] = WebAction(input, handler: handler)
    }

    /// Declares the action `name`, which takes no form fields.
    public final func action(_ name: String, _ handler: @escaping @MainActor () async throws -> Void) {
        actions[name] = WebAction(handler: handler)
    }

    func action(named name: String) -> WebAction? {
        actions[name]
    }

    /// A form that posts the action `name` of this fragment. It carries the
    /// fragment id, the action, the session's CSRF token and the page to
    /// come back to (`returnTo`, or the page being shown).
    public final func form(
        _ name: String,
        class className: String? = nil,
        returnTo: String? = nil,
        content: HTML
    ) -> HTML {
        let classAttribute: HTML? = className.map { " class=\"\($0)\"" }
        let back = returnTo ?? session?.currentPath.description ?? "/"
        return """
            <form method="post" action="\(WebSession.actionPath)"\(classAttribute) data-napkin-form>\
            <input type="hidden" name="_fragment" value="\(fragmentID)">\
            <input type="hidden" name="_action" value="\(name)">\
            <input type="hidden" name="_csrf" value="\(session?.csrfToken ?? "")">\
            <input type="hidden" name="_return" value="\(back)">\
            \(content)</form>
            """
    }

    // MARK: - Rendering

    /// The fragment's outer HTML, re-rendered only when something it read
    /// changed since the last time.
    final func render() -> HTML {
        if let cachedHTML { return cachedHTML }
        // Children render first, outside this fragment's observation, so a
        // child's change re-renders the child only.
        for child in slots.values { _ = child.render() }
        let inner: HTML
        if observing {
            inner = body()
        } else {
            observing = true
            inner = withObservationTracking {
                body()
            } onChange: { [weak self] in
                WebViewController.onMain { self?.stateChanged() }
            }
        }
        let html: HTML = "<div class=\"napkin\" id=\"\(fragmentID)\" data-napkin=\"\(napkinName)\">\(inner)</div>"
        cachedHTML = html
        return html
    }

    /// Runs `work` on the main actor: at once when already there (so the
    /// change is known before the mutating call returns), else after a hop.
    private nonisolated static func onMain(_ work: @escaping @MainActor @Sendable () -> Void) {
        if MainQueue.isCurrent {
            MainActor.assumeIsolated { work() }
        } else {
            Task { @MainActor in work() }
        }
    }

    private func stateChanged() {
        observing = false
        invalidate()
    }

    /// Drops this fragment's HTML (and its ancestors', which contain it) and
    /// asks the session for a patch.
    private func invalidate() {
        var node: WebViewController? = self
        while let current = node {
            current.cachedHTML = nil
            node = current.parent
        }
        session?.fragmentChanged(self)
    }

    // MARK: - Mounting

    func mount(in session: WebSession) {
        self.session = session
        session.register(self)
        for child in slots.values { child.mount(in: session) }
    }

    func unmount() {
        for child in slots.values { child.unmount() }
        session?.unregister(self)
        session = nil
        parent = nil
        cachedHTML = nil
    }

    /// Drops the rendered HTML of this subtree: when what forms embed (the
    /// page path) changed, or to keep an idle session small. Observation
    /// stays armed, so changes are still noticed.
    func forgetRenders() {
        cachedHTML = nil
        for child in slots.values { child.forgetRenders() }
    }

    /// Whether `other` contains this fragment.
    func isDescendant(of other: WebViewController) -> Bool {
        var node = parent
        while let current = node {
            if current === other { return true }
            node = current.parent
        }
        return false
    }
}
