import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import napkin

/// The web `ViewControllable`: a napkin's view as an HTML fragment.
///
/// Subclass it, render the presenter's state in ``body()``, embed children
/// in named slots, and declare the actions its forms post:
///
/// ```swift
/// final class CounterViewController: WebViewController {
///     let presenter: CounterPresenter
///
///     init(presenter: CounterPresenter, listener: CounterInteractor) {
///         self.presenter = presenter
///         super.init()
///         action("increment") { await listener.didTapIncrement() }
///     }
///
///     override func body() -> HTML {
///         "<p>\(presenter.count)</p>\(form("increment", content: "<button>+1</button>"))"
///     }
/// }
/// ```
///
/// An action refuses a post by throwing a ``FormError`` (so does a post
/// whose fields do not decode): the action's ``form(_:key:class:returnTo:content:)-(String,_,_,_,_)``
/// then shows the message, and ``problem(for:)`` tells the body which field
/// to mark and what was typed.
///
/// napkin wraps the body in `<div class="napkin" id="…" data-napkin="…">`
/// with a stable fragment id. While the fragment is on a page, napkin
/// observes what ``body()`` read (Observation): when any of it changes, the
/// fragment re-renders and its new HTML is sent to its tab's event stream.
@MainActor
open class WebViewController: ViewControllable {
    /// The id of this fragment's element: its place in the tab's tree (see
    /// `FragmentID`), set when it is shown. The same place gets the same id
    /// in any process.
    public private(set) var fragmentID = ""
    /// The running digest of the path of slot and region names from the
    /// root, which the id shows (see `FragmentID`).
    private var placeDigest = UInt64(0)

    /// The napkin's name, shown as `data-napkin` and in JSON snapshots.
    open var napkinName: String {
        let name = String(describing: type(of: self))
        return name.hasSuffix("ViewController") ? String(name.dropLast("ViewController".count)) : name
    }

    /// The page title while this fragment is shown, or `nil` to leave it to
    /// the fragments above. The deepest fragment with a title names the
    /// page (`<title>`, and the title napkin's client sets on a live
    /// navigation); with none, the layout's title stands.
    open var pageTitle: String? { nil }

    // Small maps rather than dictionaries: a view holds a few of each, and
    // every live tab holds several views.
    private var slots = SmallMap<String, WebViewController>()
    private var actions = SmallMap<String, WebAction>()
    /// Why the last post of each action was refused, by action name.
    private var problems = SmallMap<String, FormProblem>()
    /// The forms (action and key) whose problem a field helper showed
    /// beside its field in this render: their form shows no message of
    /// its own.
    var fieldMessages: Set<String> = []
    fileprivate(set) weak var parent: WebViewController?
    /// The slot (or region name) this fragment is shown in, under `parent`.
    private var place: Place = .root

    private enum Place {
        case root
        case slot(String)
        case region(String)
    }
    private(set) weak var tab: WebTab?
    private var cachedHTML: HTML?
    /// Whether an observation of ``body()`` is registered and has not fired.
    /// There is at most one at a time: a render while it is armed reads the
    /// same state and needs no new one (which would pile up in the
    /// observed objects until they next change).
    private var observing = false
    /// Bumped whenever a new observation is armed; an older one that fires
    /// later is stale and ignored.
    private var observation = 0
    /// Parts of the body observed on their own (see ``region(_:_:)``).
    private var regions = SmallMap<String, RegionViewController>()
    /// Regions the body asked for while rendering.
    private var regionsUsed: [String] = []
    /// Regions created while the body renders under observation, each
    /// rendered after it, into the place its marker holds (see
    /// ``region(_:_:)``).
    private var regionsToFill: [(name: String, region: RegionViewController)] = []
    /// Whether ``body()`` is running under this fragment's observation now.
    private var observingBody = false
    /// Whether the body is rendered under an observation at all: a region
    /// whose owner is told of its changes directly has none.
    private var observesBody = true
    /// The shared fragments the last render of the body showed.
    private var sharedShown = SmallMap<ObjectIdentifier, any SharedFragmentViewers>()

    /// Creates a view controller; it gets its fragment id when shown.
    public init() {
        reportUnobservedOwnPresenter()
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
        let child = Self.checked(child, as: "a view shown in a slot")
        if let old = slots[name], old === child { return }
        slots[name]?.unmount()
        slots[name] = child
        child.parent = self
        child.place = .slot(name)
        if let tab { child.mount(in: tab) }
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
    public final var children: [String: WebViewController] {
        Dictionary(slots.pairs, uniquingKeysWith: { first, _ in first })
    }

    /// The child shown in slot `name`, found without building ``children``.
    final func shownChild(in name: String) -> WebViewController? {
        slots[name]
    }

    /// The children shown in slots, without building ``children``.
    final var shownChildren: some Sequence<WebViewController> { slots.values }

    // MARK: - Regions

    /// A part of the body observed on its own: a change to what only
    /// `content` reads re-renders and sends only this part. For a value that
    /// changes often (a live figure, a clock):
    ///
    /// ```swift
    /// "<h1>\(presenter.title)</h1>\(region("pit") { "<p>\(presenter.pitHeadline)</p>" })"
    /// ```
    ///
    /// It is wrapped in its own `<div class="napkin">` (`display: contents`
    /// keeps layouts); its forms belong to this fragment.
    public final func region(_ name: String, _ content: @escaping @MainActor () -> HTML) -> HTML {
        region(name, observed: true, content)
    }

    /// A region, observed as ``region(_:_:)`` says, or (`observed` false)
    /// re-rendered only when ``regionChanged(_:)`` says so: for napkin's own
    /// state, which knows when it changes, an observation (the tracking, its
    /// access list, the observed object's tables) would cost every tab more
    /// than the region itself.
    final func region(_ name: String, observed: Bool, _ content: @escaping @MainActor () -> HTML) -> HTML {
        if !regionsUsed.contains(name) { regionsUsed.append(name) }
        if let existing = regions[name] {
            existing.content = content
            return existing.render()
        }
        let region = RegionViewController(name: "\(napkinName).\(name)", content: content)
        region.observesBody = observed
        region.parent = self
        region.place = .region(name)
        regions[name] = region
        if let tab { region.mount(in: tab) }
        // Rendered here, under this body's observation, the region's
        // content would be watched by both: a change to it would re-render
        // this whole fragment. So the body gets a marker, and the region is
        // rendered on its own once the body is done.
        guard observingBody else { return region.render() }
        regionsToFill.append((name, region))
        return HTML(raw: Self.marker(of: name))
    }

    /// Re-renders region `name`, created unobserved, and sends it.
    final func regionChanged(_ name: String) {
        regions[name]?.invalidate()
    }

    /// Holds a new region's place in the body's markup: text that a user's
    /// input cannot contain, since it carries a number drawn at launch.
    private static func marker(of region: String) -> String {
        "\u{1}napkin-region-\(markerNonce)-\(region)\u{1}"
    }

    private static let markerNonce = UInt64.random(in: .min ... .max)

    /// `inner` with each new region's markup in place of its marker.
    private func fillNewRegions(_ inner: HTML) -> HTML {
        var markup = inner.rendered
        for (name, region) in regionsToFill {
            markup = markup.replacing(Self.marker(of: name), with: region.render().rendered)
        }
        regionsToFill.removeAll()
        return HTML(raw: markup)
    }

    // MARK: - Shared fragments

    /// Shows `fragment`, whose HTML is the same on every tab: when its value
    /// changes, it is rendered once and the patch goes to every tab showing
    /// it, without this fragment re-rendering (see ``SharedFragment``).
    /// Call it from ``body()``, not from inside a region.
    public final func shared<Value>(_ fragment: SharedFragment<Value>) -> HTML {
        sharedShown[ObjectIdentifier(fragment)] = fragment
        return fragment.shown(by: self, id: FragmentID.shared(in: placeDigest, name: fragment.name))
    }

    /// Drops the HTML kept here and in every fragment above, which contains
    /// it. Patches nothing: a shared fragment inside that changed sends its
    /// own patch.
    func forgetRendersUpward() {
        var node: WebViewController? = self
        while let current = node {
            current.cachedHTML = nil
            node = current.parent
        }
    }

    // MARK: - Actions

    /// Declares the action `name`, whose form fields decode into `Input`.
    ///
    /// The handler runs on the main actor; it should call the napkin's
    /// listener (the interactor) and return. To refuse the post, it (or
    /// what it awaits) throws a ``FormError``; fields that do not decode
    /// into `Input` are refused the same way, with a short message naming
    /// the field. The form then shows the message (see ``problem(for:)``).
    public final func action<Input: Decodable>(
        _ name: String,
        as input: Input.Type = Input.self,
        _ handler: @escaping @MainActor (Input) async throws -> Void
    ) {
        actions[name] = .typed(input, handler: handler)
    }

    /// Declares the action `name`, which takes no form fields. Its handler
    /// may refuse the post by throwing a ``FormError``.
    public final func action(_ name: String, _ handler: @escaping @MainActor () async throws -> Void) {
        actions[name] = .plain(handler: handler)
    }

    func action(named name: String) -> WebAction? {
        actions[name]
    }

    /// Declares `action`, whose form fields decode into its `Input` and are
    /// checked by its `validate` before `handler` runs.
    ///
    /// The handler runs on the main actor; it should call the napkin's
    /// listener (the interactor) and return. To refuse the post, it (or
    /// what it awaits) throws a ``FormError``, as fields that do not
    /// decode and a failed `validate` do.
    public final func action<Input: Decodable>(_ action: FormAction<Input>, _ handler: @escaping @MainActor (Input) async throws -> Void) {
        actions[action.name] = .typed(
            Input.self, validate: action.validate, whileTyping: action.validatesWhileTyping ? action.debounceMilliseconds : nil,
            handler: handler)
    }

    /// Declares `action`, which takes no form fields.
    public final func action(_ action: FormAction<NoFields>, _ handler: @escaping @MainActor () async throws -> Void) {
        actions[action.name] = .plain(handler: handler)
    }

    /// A form that posts `action` of this fragment (see
    /// ``form(_:key:class:returnTo:content:)-(String,_,_,_,_)``), as
    /// `multipart/form-data` when `multipart` is true (a form with a file
    /// input; see <doc:Uploads>).
    public final func form<Input>(
        _ action: FormAction<Input>,
        key: String? = nil,
        class className: String? = nil,
        returnTo: String? = nil,
        multipart: Bool = false,
        content: HTML
    ) -> HTML {
        form(action.name, key: key, class: className, returnTo: returnTo, multipart: multipart, content: content)
    }

    /// A form that posts the action `name` of this fragment. It carries the
    /// tab and fragment ids, the action, the session's CSRF token, the
    /// page to come back to (`returnTo`, or the page being shown) and a
    /// token of its own, fresh at each render, so a replayed post runs once.
    ///
    /// When the action's last post was refused (a ``FormError``), the form
    /// begins with the message, for screen readers too:
    /// `<p class="napkin-error" role="alert" id="…">Name is required.</p>`
    /// (the id is ``FormProblem/id``) — unless a field helper
    /// (``field(_:_:label:of:key:value:checked:id:class:attributes:)-(_,_,_,String,_,_,_,_,_,_)``)
    /// showed it beside its field. An action with one form per item
    /// gives each form its own `key` (the item's id): the message then
    /// shows only in the form that was posted.
    ///
    /// A form of an action that validates while typing
    /// (``FormAction/validatesWhileTyping``) says so to napkin's client.
    public final func form(
        _ name: String,
        key: String? = nil,
        class className: String? = nil,
        returnTo: String? = nil,
        content: HTML
    ) -> HTML {
        form(name, key: key, class: className, returnTo: returnTo, multipart: false, content: content)
    }

    /// A form as ``form(_:key:class:returnTo:content:)`` makes, posted as
    /// `multipart/form-data` when `multipart` is true: the encoding a file
    /// input needs, whose files reach the action as `UploadedFile` fields
    /// (see <doc:Uploads>).
    public final func form(
        _ name: String,
        key: String? = nil,
        class className: String? = nil,
        returnTo: String? = nil,
        multipart: Bool,
        content: HTML
    ) -> HTML {
        var classAttribute: HTML? = className.map { " class=\"\($0)\"" }
        if multipart { classAttribute = "\(classAttribute) enctype=\"multipart/form-data\"" }
        let back = returnTo ?? tab?.currentPath.description ?? "/"
        let keyField: HTML? = key.map { "<input type=\"hidden\" name=\"\(WireProtocol.Field.key)\" value=\"\($0)\">" }
        let validating: HTML? = actions[name]?.whileTyping.map { " \(raw: WireProtocol.Attribute.validate)=\"\($0)\"" }
        let shownBeside = fieldMessages.remove(Self.formKey(name, key)) != nil
        var message: HTML?
        if let problem = problems[name], problem.key == key, !shownBeside {
            let field: HTML? = problem.field.map { " \(raw: WireProtocol.Attribute.field)=\"\($0)\"" }
            message = "<p class=\"napkin-error\" role=\"alert\" id=\"\(problem.id)\"\(field)>\(problem.message)</p>"
        }
        return """
            <form method="post" action="\(WebSession.actionPath)"\(classAttribute) \(raw: WireProtocol.Attribute.form)\(validating)>\
            <input type="hidden" name="\(WireProtocol.Field.tab)" value="\(tab?.id ?? "")">\
            <input type="hidden" name="\(WireProtocol.Field.fragment)" value="\(fragmentID)">\
            <input type="hidden" name="\(WireProtocol.Field.action)" value="\(name)">\
            <input type="hidden" name="\(WireProtocol.Field.csrf)" value="\(tab?.session?.csrfToken ?? "")">\
            <input type="hidden" name="\(WireProtocol.Field.returnPath)" value="\(back)">\
            <input type="hidden" name="\(WireProtocol.Field.formToken)" value="\(FormTokenLedger.mint())">\
            \(keyField)\(message)\(content)</form>
            """
    }

    /// How ``fieldMessages`` names the form of `action` and `key`.
    static func formKey(_ action: String, _ key: String?) -> String {
        "\(action)\u{0}\(key ?? "")"
    }

    // MARK: - Problems

    /// Why the last post of the action `name` was refused, with what was
    /// posted; `nil` when it was not, or has been cleared since. Read it in
    /// ``body()`` to mark the field at fault and keep what was typed:
    ///
    /// ```swift
    /// let problem = problem(for: "order")
    /// let invalid: HTML = problem?.field == "name" ? " aria-invalid=\"true\"" : ""
    /// return form("order", content: """
    ///     <input name="name" value="\(problem?.values["name"] ?? "")"\(invalid)>\
    ///     <button>Order</button>
    ///     """)
    /// ```
    public final func problem(for name: String) -> FormProblem? {
        problems[name]
    }

    /// Keeps why the post of `name` was refused, and re-renders.
    func record(_ problem: FormProblem, for name: String) {
        problems[name] = problem
        problemsChanged()
    }

    /// Forgets the renders holding the fragment's forms after a post spent
    /// one of their tokens, so the next page shows a new one. Nothing is
    /// patched: napkin's client is given the next token with its answer.
    func formTokenSpent() {
        for region in regions.values { region.cachedHTML = nil }
        forgetRendersUpward()
    }

    /// Forgets a refused post of `name` after one that succeeded.
    func clearProblem(for name: String) {
        guard problems.removeValue(forKey: name) != nil else { return }
        problemsChanged()
    }

    /// Re-renders what shows this fragment's forms: its body, and its
    /// regions, whose forms are this fragment's too.
    private func problemsChanged() {
        for region in regions.values { region.invalidate() }
        invalidate()
    }

    // MARK: - Rendering

    /// The fragment's outer HTML, re-rendered only when something it read
    /// changed since the last time.
    final func render() -> HTML {
        if let cachedHTML { return cachedHTML }
        // Children and regions render first, outside this fragment's
        // observation, so a change they alone read re-renders them only.
        for child in slots.values { _ = child.render() }
        for region in regions.values { _ = region.render() }
        regionsUsed.removeAll()
        fieldMessages.removeAll()
        let sharedBefore = sharedShown
        sharedShown.removeAll()
        var inner: HTML
        if observing || !observesBody {
            inner = body()
        } else {
            inner = observedBody()
            if !regionsToFill.isEmpty { inner = fillNewRegions(inner) }
        }
        dropUnusedRegions()
        for (key, fragment) in sharedBefore.pairs where sharedShown[key] == nil { fragment.forget(self) }
        let html: HTML = "<div class=\"napkin\" id=\"\(fragmentID)\" data-napkin=\"\(napkinName)\">\(inner)</div>"
        cachedHTML = html
        return html
    }

    /// `body()` under a fresh observation, which supersedes any armed one.
    private func observedBody() -> HTML {
        observing = true
        observation += 1
        let generation = observation
        observingBody = true
        defer { observingBody = false }
        return withObservationTracking {
            body()
        } onChange: { [weak self] in
            WebViewController.onMain { self?.stateChanged(generation) }
        }
    }

    private func dropUnusedRegions() {
        defer { regionsUsed = [] }
        guard regions.count > regionsUsed.count else { return }
        for (name, region) in regions.pairs where !regionsUsed.contains(name) {
            region.unmount()
            regions[name] = nil
        }
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

    private func stateChanged(_ generation: Int) {
        guard generation == observation else { return }
        observing = false
        invalidate()
    }

    /// Drops this fragment's HTML (and its ancestors', which contain it) and
    /// asks the tab for a patch.
    private func invalidate() {
        forgetRendersUpward()
        tab?.fragmentChanged(self)
    }

    // MARK: - Mounting

    func mount(in tab: WebTab) {
        self.tab = tab
        (placeDigest, fragmentID) =
            switch (place, parent) {
            case (.slot(let slot), let parent?): FragmentID.child(of: parent.placeDigest, slot: slot)
            case (.region(let name), let parent?): FragmentID.region(of: parent.placeDigest, name: name)
            default: FragmentID.root
            }
        tab.register(self)
        for (name, child) in slots.pairs {
            child.parent = self
            child.place = .slot(name)
            child.mount(in: tab)
        }
        for region in regions.values {
            region.parent = self
            region.mount(in: tab)
        }
    }

    func unmount() {
        for child in slots.values { child.unmount() }
        // Regions are made again by the next render; dropping them here also
        // breaks the cycle their content closures may hold (a closure that
        // captures the presenter, which holds this view).
        for region in regions.values { region.unmount() }
        regions.removeAll()
        // Off the page, a refused post is over.
        problems.removeAll()
        for fragment in sharedShown.values { fragment.forget(self) }
        sharedShown.removeAll()
        tab?.unregister(self)
        tab = nil
        parent = nil
        cachedHTML = nil
    }

    /// Drops the rendered HTML of this subtree: when what forms embed (the
    /// page path) changed, or to keep an idle session small. Observation
    /// stays armed, so changes are still noticed.
    func forgetRenders() {
        cachedHTML = nil
        for child in slots.values { child.forgetRenders() }
        for region in regions.values { region.forgetRenders() }
    }

    /// The title of the deepest fragment in this subtree that has one.
    func deepestPageTitle() -> String? {
        // The child first in slot-name order that has a title: found
        // without sorting a copy of the slots on every page view.
        var first: (slot: String, title: String)?
        for (slot, child) in slots.pairs where first.map({ slot < $0.slot }) ?? true {
            if let title = child.deepestPageTitle() { first = (slot, title) }
        }
        return first?.title ?? pageTitle
    }

    /// Whether the fragment is on `tab`'s page now.
    func isMounted(in tab: WebTab) -> Bool {
        self.tab === tab && tab.fragment(id: fragmentID) === self
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

/// A part of a fragment's body with an observation of its own (see
/// ``WebViewController/region(_:_:)``).
final class RegionViewController: WebViewController {
    private let name: String
    var content: @MainActor () -> HTML

    init(name: String, content: @escaping @MainActor () -> HTML) {
        self.name = name
        self.content = content
        super.init()
    }

    override var napkinName: String { name }

    override func body() -> HTML {
        content()
    }
}
