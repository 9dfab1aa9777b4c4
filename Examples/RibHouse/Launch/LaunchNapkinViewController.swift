import NapkinWeb

/// A short-lived message on the page.
struct Toast: Sendable, Equatable, Encodable, Identifiable {
    let id: Int
    let text: String
    /// Where the announcement's photo is served, if it has one.
    var photoURL: String? = nil

    /// The most toasts a page shows at once. Anyone may announce, so a
    /// burst must not bury the page (or grow every session's state).
    static let limit = 3
}

/// The page's own state: the toasts. The routed child (LoggedOut or
/// LoggedIn) renders itself.
@MainActor @Observable
final class LaunchNapkinPresenter: Presentable, StatePresenting {
    private(set) var toasts: [Toast] = []

    /// Shows `toast`, dropping the oldest beyond ``Toast/limit``.
    func present(toast: Toast) {
        toasts = Array((toasts + [toast]).suffix(Toast.limit))
    }

    func dismissToast(id: Toast.ID) {
        toasts.removeAll { $0.id == id }
    }

    var state: some Encodable { ["toasts": toasts] }
}

/// The fields of a toast's close button.
struct DismissToastForm: Decodable {
    /// The toast's id, read leniently: a stale or garbled id dismisses
    /// nothing rather than answering a decoding error.
    var toast: String?
}

/// The page root: the routed child's screen in the `content` slot, then the
/// toasts.
final class LaunchNapkinViewController: WebViewController {
    let presenter: LaunchNapkinPresenter

    init(presenter: LaunchNapkinPresenter, listener: LaunchNapkinInteractor) {
        self.presenter = presenter
        super.init()
        action("dismissToast", as: DismissToastForm.self) { form in
            guard let id = form.toast.flatMap({ Int($0) }) else { return }
            await listener.didDismissToast(id: id)
        }
    }

    /// Each toast is its own status message, with a close button that is a
    /// plain form: without JavaScript it posts and the page comes back
    /// without the toast; with it, napkin.js hides the toast at once and
    /// posts in the background. The toast lets clicks through to whatever
    /// it lies over (see ribhouse.css); only the close button takes them.
    override func body() -> HTML {
        let toasts = presenter.toasts.map { toast -> HTML in
            let close = form("dismissToast", class: "toast-dismiss", content: """
                <input type="hidden" name="toast" value="\(toast.id)">\
                <button type="submit" class="toast-close" aria-label="Dismiss" aria-describedby="rh-toast-\(toast.id)">×</button>
                """)
            let photo: HTML? = toast.photoURL.map { "<img class=\"toast-photo\" src=\"\($0)\" alt=\"Photo sent with the announcement\">" }
            return """
                <div class="toast"><p class="toast-text" id="rh-toast-\(toast.id)" role="status">\(toast.text)</p>\(photo)\(close)</div>
                """
        }
        return """
            \(slot("content"))\
            <div class="toasts">\(toasts)</div>
            """
    }
}
