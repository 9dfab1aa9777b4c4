import Foundation
import napkin

/// One napkin in a JSON snapshot of a session's tree.
public struct TreeSnapshot: Encodable, Equatable, Sendable {
    /// The napkin's name (its router's type without `Router`).
    public let name: String
    /// The slot of its parent's view that shows it, when it is shown in one.
    public let slot: String?
    /// Whether its interactor is active.
    public let active: Bool
    /// The id of its fragment, when it has a web view.
    public let fragment: String?
    /// Its presenter's state, when the presenter is ``StatePresenting``.
    public let state: JSONValue?
    /// Its attached children, in attach order.
    public let children: [TreeSnapshot]

    /// Snapshots the subtree of `router`.
    @MainActor
    public init(router: any Routing) {
        self.init(router: router, slot: nil)
    }

    @MainActor
    private init(router: any Routing, slot: String?) {
        name = Self.name(of: router)
        self.slot = slot
        active = router.interactable.isActive
        let view = (router as? any ViewableRouting)?.viewControllable as? WebViewController
        fragment = view?.fragmentID
        state = Self.state(of: router.interactable) ?? view.flatMap { Self.state(of: $0) }
        // Each child's slot, looked up by the view it shows: the slots read once.
        let slots = Dictionary(
            (view?.children ?? [:]).map { (ObjectIdentifier($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
        children = router.children.map { child in
            let shown = (child as? any ViewableRouting)?.viewControllable as? WebViewController
            return TreeSnapshot(router: child, slot: shown.flatMap { slots[ObjectIdentifier($0)] })
        }
    }

    /// The router's type without `Router`; for napkin's own generic routers
    /// (a leaf built as a plain `ViewableRouter<I, V>`), the interactor's
    /// type without `Interactor`.
    @MainActor
    private static func name(of router: any Routing) -> String {
        let routerName = String(describing: type(of: router))
        if !routerName.contains("<") { return routerName.dropping(suffix: "Router") }
        return String(describing: type(of: router.interactable)).dropping(suffix: "Interactor")
    }
}

/// Capturing a presenter's state on the main actor as a JSON value.
extension TreeSnapshot {
    @MainActor
    private static func state(of interactor: any Interactable) -> JSONValue? {
        guard let presentable = interactor as? any PresentableInteractable else { return nil }
        return state(presenterOf: presentable)
    }

    @MainActor
    private static func state<I: PresentableInteractable>(presenterOf interactor: I) -> JSONValue? {
        guard let presenter = interactor.presenter as? any StatePresenting else { return nil }
        return capture(presenter)
    }

    @MainActor
    private static func state(of viewController: WebViewController) -> JSONValue? {
        guard let presenter = viewController as? any StatePresenting else { return nil }
        return capture(presenter)
    }

    @MainActor
    private static func capture<P: StatePresenting>(_ presenter: P) -> JSONValue? {
        guard let data = try? JSONEncoder().encode(presenter.state) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}

extension String {
    /// The string without `suffix` at its end, if it ends with it.
    fileprivate func dropping(suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
