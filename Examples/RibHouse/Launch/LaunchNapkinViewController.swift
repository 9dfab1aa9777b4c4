import NapkinWeb
import napkin

/// What the Launch router may do with the page: swap its content.
@MainActor
protocol LaunchNapkinViewControllable: ViewControllable {
    func show(content: any ViewControllable)
    func clearContent()
}

/// The page root: the routed child's screen, then the toast region.
final class LaunchNapkinViewController: WebViewController, LaunchNapkinViewControllable {
    /// Weak: the presenter owns this view controller.
    weak var presenter: LaunchNapkinPresenter?

    func show(content: any ViewControllable) {
        show(content, in: "content")
    }

    func clearContent() {
        clear(slot: "content")
    }

    override func body() -> HTML {
        let toasts = (presenter?.toasts ?? []).map { toast -> HTML in
            "<p class=\"toast\" role=\"status\">\(toast.text)</p>"
        }
        return """
            \(slot("content"))\
            <div class="toasts" aria-live="polite">\(toasts)</div>
            """
    }
}
