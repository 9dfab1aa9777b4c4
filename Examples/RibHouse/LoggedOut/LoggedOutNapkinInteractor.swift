import napkin

/// How LoggedOut talks up to its parent: "this guest wants in as `name`".
/// The parent signs the guest in, or throws a `LoginError` to refuse.
protocol LoggedOutNapkinListener: AnyObject, Sendable {
    func loggedOutDidSubmit(name: String) async throws
}

/// Passes the name up and shows why it was refused. It never routes: once
/// the guest is signed in, the Launch napkin replaces this whole napkin.
final actor LoggedOutNapkinInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: LoggedOutNapkinPresenter
    private let listener: any LoggedOutNapkinListener

    init(presenter: LoggedOutNapkinPresenter, listener: any LoggedOutNapkinListener) {
        self.presenter = presenter
        self.listener = listener
    }

    func didSubmit(name: String) async {
        do {
            try await listener.loggedOutDidSubmit(name: name)
        } catch {
            let reason = (error as? LoginError)?.description ?? "The smokehouse door stuck. Please try again."
            await presenter.present(error: reason, draft: name)
        }
    }
}
