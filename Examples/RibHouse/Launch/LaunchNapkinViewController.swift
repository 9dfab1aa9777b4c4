import NapkinWeb

/// The page's own state: the announcements, as toasts (the newest three,
/// each for six seconds). The routed child (LoggedOut or LoggedIn) renders
/// itself.
@MainActor @Observable
final class LaunchNapkinPresenter: Presentable, StatePresenting {
    let toasts = Toasts<Announcement>()

    var state: some Encodable { ["toasts": toasts.shown] }
}

/// The page root: the routed child's screen in the `content` slot, then the
/// toasts.
final class LaunchNapkinViewController: WebViewController {
    let presenter: LaunchNapkinPresenter

    init(presenter: LaunchNapkinPresenter, listener: LaunchNapkinInteractor) {
        self.presenter = presenter
        super.init()
        action(.dismissToast) { form in await listener.didDismissToast(form.toast) }
    }

    /// Each announcement is a toast (with its photo, if it came with one)
    /// that lets clicks through to whatever it lies over (see
    /// ribhouse.css); only its close button takes them.
    override func body() -> HTML {
        let toasts = toasts(presenter.toasts) { announcement in
            let photo: HTML? = announcement.photoURL.map { "<img class=\"toast-photo\" src=\"\($0)\" alt=\"Photo sent with the announcement\">" }
            return "<p>\(announcement.text)</p>\(photo)"
        }
        return "\(slot("content"))\(toasts)"
    }
}
