import napkin

/// Child slots: a router attaches a child napkin and shows its view in a
/// named slot of its own view in one step, and clears the slot and detaches
/// the child in one step — so a detached napkin never lingers on the page
/// as a frozen fragment, and a shown one is never left unattached.
///
/// ```swift
/// func navigate(to path: WebPath) async -> Bool {
///     switch path.first {
///     case nil: await detachChild(in: "board"); return true
///     case "pit": await attachIfNeeded(in: "board") { pitBoardBuilder.build() }; return true
///     default: return false
///     }
/// }
/// ```
///
/// The router's view must be a ``WebViewController``, which renders the
/// slot with ``WebViewController/slot(_:)``.
extension ViewableRouting {
    /// Attaches `child` and shows its view in the slot `slot` of this
    /// napkin's view, detaching the napkin shown there before, if any.
    ///
    /// With `path`, a child that routes pages (``WebRouting``) is navigated
    /// to it before its view is shown, so its first render is already the
    /// page: use it when a napkin is attached outside a navigation (a login
    /// replacing the login form) at the path the tab is on.
    ///
    /// - Returns: whether the child claims `path` (`true` without a path).
    @discardableResult
    public func attach(_ child: any ViewableRouting, in slot: String, navigatingTo path: WebPath? = nil) async -> Bool {
        if let current = self.child(in: slot) {
            if current === child { return true }
            await detachChild(in: slot)
        }
        await attachChild(child)
        var claimed = true
        if let path, let routing = child as? any WebRouting {
            claimed = await routing.navigate(to: path)
        }
        webView.show(child.viewControllable, in: slot)
        return claimed
    }

    /// Attaches the child `build` makes in the slot `slot` unless the slot
    /// already shows a child of that router type, which is left as it is:
    /// `build` runs only when a child is attached. Otherwise as
    /// ``attach(_:in:navigatingTo:)``, whose answer it gives (`true` for a
    /// child already shown).
    @discardableResult
    public func attachIfNeeded<Child: ViewableRouting>(
        in slot: String, navigatingTo path: WebPath? = nil, _ build: () async -> Child
    ) async -> Bool {
        if child(in: slot) is Child { return true }
        return await attach(build(), in: slot, navigatingTo: path)
    }

    /// Empties the slot `slot` and detaches the napkin that was shown there.
    /// Does nothing when the slot is empty.
    public func detachChild(in slot: String) async {
        let shown = child(in: slot)
        webView.clear(slot: slot)
        if let shown { await detachChild(shown) }
    }

    /// The attached child whose view is shown in the slot `slot`, if any.
    public func child(in slot: String) -> (any ViewableRouting)? {
        guard let shown = webView.shownChild(in: slot) else { return nil }
        for child in children {
            if let viewable = child as? any ViewableRouting, viewable.viewControllable === shown { return viewable }
        }
        return nil
    }

    private var webView: WebViewController {
        WebViewController.checked(viewControllable, as: "a router's view with child slots")
    }
}
