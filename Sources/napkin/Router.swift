/// A router owns a napkin's place in the tree: its interactor and its
/// children. Routers live on the main actor, where tree changes are
/// serialized.
@MainActor
public protocol Routing: AnyObject, Sendable {
    /// The napkin's interactor, driven by this router's parent.
    var interactable: any Interactable { get }

    /// The attached children, in attach order.
    var children: [any Routing] { get }

    /// Loads the router: runs `didLoad()` the first time, and only then.
    func load() async

    /// Attaches `child`: activates its subtree, then loads it.
    func attachChild(_ child: any Routing) async

    /// Detaches `child`: deactivates it (its interactor first, then its
    /// subtree), then removes it from ``children``.
    func detachChild(_ child: any Routing) async

    /// Activates this router's interactor and those of its subtree, top down.
    func activateSubtree() async

    /// Deactivates this router's interactor, then its children's subtrees,
    /// the last attached first.
    func deactivateSubtree() async
}

/// The router of a napkin without a view.
///
/// A leaf uses it as it is: its builder returns `Router(interactor:)`. A
/// napkin with children subclasses it, keeps its children's builders (and
/// the children it attaches), and overrides ``didLoad()`` to attach
/// permanent children:
///
/// ```swift
/// final class RootRouter: Router<RootInteractor>, RootRouting {
///     private let homeBuilder: HomeBuilder
///
///     init(interactor: RootInteractor, homeBuilder: HomeBuilder) {
///         self.homeBuilder = homeBuilder
///         super.init(interactor: interactor)
///     }
///
///     func routeToHome() async {
///         await attachChild(homeBuilder.build(listener: interactor))
///     }
/// }
/// ```
///
/// Misuse is tolerated: attaching a child twice or detaching a router that
/// is not a child does nothing (and is reported in debug builds through
/// ``Diagnostics``), so the tree never holds a duplicate and never
/// deactivates a stranger.
@MainActor
open class Router<InteractorType: Interactable>: Routing {
    /// This napkin's interactor.
    public let interactor: InteractorType

    /// The attached children, in attach order.
    public private(set) final var children: [any Routing] = []
    /// The children's identities, kept only while there are more than
    /// `childSearchLimit`: a router with a few children (nearly all of
    /// them, in every live tab) finds a child by looking through them.
    private var childIDs: Set<ObjectIdentifier> = []
    private static var childSearchLimit: Int { 8 }

    /// Set when ``load()`` first runs, so that ``didLoad()`` runs once.
    private var loadStarted = false

    /// Creates a router for `interactor`.
    public init(interactor: InteractorType) {
        self.interactor = interactor
    }

    /// The lifecycle napkin kept for the interactor (one that declares
    /// none) ends with the router that owns it, so a tree's lifecycles go
    /// when the tree goes; work still bound to one is cancelled.
    deinit {
        LifecycleTable.forget(interactor)
    }

    /// The interactor, as any ``Interactable``.
    public final var interactable: any Interactable { interactor }

    /// Called once, the first time the router is loaded (right after its
    /// napkin is first attached or launched). Attach permanent children here.
    open func didLoad() async {}

    /// Whether ``didLoad()`` has completed.
    public private(set) final var isLoaded = false

    /// Runs ``didLoad()`` the first time it is called, and does nothing after.
    public final func load() async {
        guard !loadStarted else { return }
        loadStarted = true
        await didLoad()
        isLoaded = true
    }

    /// Attaches `child`: adds it to ``children``, activates its subtree, top
    /// down, then loads it. Attaching a child twice (or the router to itself)
    /// does nothing.
    public final func attachChild(_ child: any Routing) async {
        guard child !== self, !isChild(child) else {
            Diagnostics.report("\(type(of: child)) is already attached to \(type(of: self)); attachChild ignored")
            return
        }
        children.append(child)
        if !childIDs.isEmpty {
            childIDs.insert(ObjectIdentifier(child))
        } else if children.count > Self.childSearchLimit {
            childIDs = Set(children.map { ObjectIdentifier($0) })
        }
        child.interactable.lifecycle.adoptViewing(interactor.lifecycle.isViewed)
        await child.activateSubtree()
        await child.load()
    }

    /// Detaches `child`: deactivates it, then removes it from ``children``,
    /// and returns when both are done. The child's `willResignActive()`
    /// runs first, while it is still attached and its own children are still
    /// active; then its subtree is deactivated. Detaching a router that is not
    /// a child does nothing.
    public final func detachChild(_ child: any Routing) async {
        guard isChild(child) else {
            Diagnostics.report("\(type(of: child)) is not a child of \(type(of: self)); detachChild ignored")
            return
        }
        await child.deactivateSubtree()
        // A detach that ran while this one awaited has removed it already.
        guard isChild(child) else { return }
        // Recently attached children are detached most often: search from the end.
        if let index = children.lastIndex(where: { $0 === child }) {
            children.remove(at: index)
        }
        if !childIDs.isEmpty {
            childIDs.remove(ObjectIdentifier(child))
            if children.count <= Self.childSearchLimit { childIDs = [] }
        }
    }

    private func isChild(_ child: any Routing) -> Bool {
        childIDs.isEmpty ? children.contains { $0 === child } : childIDs.contains(ObjectIdentifier(child))
    }

    /// Activates this router's interactor, then its children's subtrees, in
    /// attach order.
    public final func activateSubtree() async {
        await interactor.activate()
        for child in children {
            child.interactable.lifecycle.adoptViewing(interactor.lifecycle.isViewed)
            await child.activateSubtree()
        }
    }

    /// Deactivates this router's interactor, then the children's subtrees,
    /// the last attached first: each interactor's `willResignActive()` runs
    /// while the napkins below it are still active.
    public final func deactivateSubtree() async {
        await interactor.deactivate()
        for child in children.reversed() {
            await child.deactivateSubtree()
        }
    }
}
