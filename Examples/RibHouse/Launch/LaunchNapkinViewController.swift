import NapkinWeb
import napkin

/// What the Launch router may do with the page: swap its content.
@MainActor
protocol LaunchNapkinViewControllable: ViewControllable {
    func show(content: any ViewControllable)
    func clearContent()
}

/// The fields of a toast's close button.
struct DismissToastForm: Decodable {
    /// The toast's id, read leniently: a stale or garbled id dismisses
    /// nothing rather than answering a decoding error.
    var toast: String?
}

/// The page root: the routed child's screen, then the toast region.
final class LaunchNapkinViewController: WebViewController, LaunchNapkinViewControllable {
    /// Weak: the presenter owns this view controller.
    weak var presenter: LaunchNapkinPresenter?
    weak var listener: (any LaunchNapkinPresentableListener)?

    override init() {
        super.init()
        action("dismissToast", as: DismissToastForm.self) { [weak self] form in
            guard let id = form.toast.flatMap({ Int($0) }) else { return }
            await self?.listener?.didDismissToast(id: id)
        }
    }

    func show(content: any ViewControllable) {
        show(content, in: "content")
    }

    func clearContent() {
        clear(slot: "content")
    }

    /// Each toast is its own status message, with a close button that is a
    /// plain form: without JavaScript it posts and the page comes back
    /// without the toast; with it, napkin.js hides the toast at once and
    /// posts in the background. The toast lets clicks through to whatever
    /// it lies over (see ribhouse.css); only the close button takes them.
    override func body() -> HTML {
        let toasts = (presenter?.toasts ?? []).map { toast -> HTML in
            let close = form("dismissToast", class: "toast-dismiss", content: """
                <input type="hidden" name="toast" value="\(toast.id)">\
                <button type="submit" class="toast-close" aria-label="Dismiss" aria-describedby="rh-toast-\(toast.id)">×</button>
                """)
            return """
                <div class="toast"><p class="toast-text" id="rh-toast-\(toast.id)" role="status">\(toast.text)</p>\(close)</div>
                """
        }
        return """
            \(slot("content"))\
            <div class="toasts">\(toasts)</div>
            """
    }
}
