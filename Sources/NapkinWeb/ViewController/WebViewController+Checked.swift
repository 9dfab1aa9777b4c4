import napkin

extension WebViewController {
    /// `view` as a web view: where a napkin's view enters the page (a tab's
    /// root, a slot). napkin's routers hand views over as
    /// `any ViewControllable`, the reference's type, so this is the one
    /// place the web layer checks it; a view of another kind in a web tree
    /// is a programming error, and stops with the type's name.
    static func checked(_ view: any ViewControllable, as role: @autoclosure () -> String) -> WebViewController {
        guard let webView = view as? WebViewController else {
            preconditionFailure("\(role()) must be a WebViewController, not \(type(of: view))")
        }
        return webView
    }
}
