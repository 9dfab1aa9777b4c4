extension WebViewController {
    /// The toasts of `toasts`, as napkin's client shows and fades them: a
    /// `<div class="toasts">` holding, per toast, a `<div class="toast">`
    /// with `content`'s HTML as its own status message and a close button.
    ///
    /// The close button is a form of ``FormAction/dismissToast``, so it
    /// works without JavaScript (the page comes back without the toast);
    /// with it, napkin's client hides the toast at once and posts in the
    /// background. Declare that action in the view's initializer. Style
    /// the classes `toasts`, `toast`, `toast-text`, `toast-dismiss` and
    /// `toast-close` (napkin's client gives `toast-out` to a toast fading
    /// out).
    ///
    /// The toasts are a region of this view (``region(_:_:)``, named
    /// `toasts`): a toast that comes or goes sends the toasts alone, not the
    /// view and the children shown in its slots. `toasts` tells the region
    /// itself when one comes or goes, so the region follows the toasts
    /// alone, not other state `content` might read.
    public func toasts<Content>(_ toasts: Toasts<Content>, content: @escaping @MainActor (Content) -> HTML) -> HTML {
        toasts.watch(by: self) { [weak self] in self?.regionChanged("toasts") }
        return region("toasts", observed: false) { [weak self, toasts] in
            self?.markup(of: toasts, content: content) ?? .empty
        }
    }

    private func markup<Content>(of toasts: Toasts<Content>, content: (Content) -> HTML) -> HTML {
        let shown = toasts.shown.map { toast -> HTML in
            let textID = "\(fragmentID)-toast-\(toast.id)"
            let close = form(.dismissToast, class: "toast-dismiss", content: """
                <input type="hidden" name="toast" value="\(toast.id)">\
                <button type="submit" class="toast-close" aria-label="Dismiss" aria-describedby="\(textID)">×</button>
                """)
            return "<div class=\"toast\"><div class=\"toast-text\" id=\"\(textID)\" role=\"status\">\(content(toast.content))</div>\(close)</div>"
        }
        return "<div class=\"toasts\">\(shown)</div>"
    }
}
