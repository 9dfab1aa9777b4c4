import NapkinWeb
import napkin

/// A short-lived message on the page.
struct Toast: Sendable, Equatable, Encodable, Identifiable {
    let id: Int
    let text: String

    /// The most toasts a page shows at once. Anyone may announce, so a
    /// burst must not bury the page (or grow every session's state).
    static let limit = 3
}

/// What the Launch interactor shows: the page-wide toasts.
@MainActor
protocol LaunchNapkinPresentable: Presentable {
    func present(toast: Toast)
    func dismissToast(id: Toast.ID)
}

/// The session page's own state. The routed child (LoggedOut or LoggedIn)
/// renders itself; this presenter only holds what belongs to the whole page.
@MainActor
@Observable
final class LaunchNapkinPresenter: Presenter<LaunchNapkinViewController>, LaunchNapkinPresentable, StatePresenting {
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
