import napkin

/// How LoggedOut talks up to its parent: "this guest wants in as `name`".
/// The parent answers by changing auth state — or throws to refuse.
protocol LoggedOutNapkinListener: AnyObject, Sendable {
    func loggedOutDidSubmit(name: String) async throws
}

/// How the view talks down to the interactor.
protocol LoggedOutNapkinPresentableListener: AnyObject, Sendable {
    func didSubmit(name: String) async
}

/// Translates the form into the parent's vocabulary and shows why a name
/// was refused. It never routes: when the name is accepted the Launch
/// napkin's auth gate replaces this whole napkin.
final actor LoggedOutNapkinInteractor: PresentableInteractable, LoggedOutNapkinPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any LoggedOutNapkinPresentable

    private weak var listener: (any LoggedOutNapkinListener)?

    init(presenter: any LoggedOutNapkinPresentable) {
        self.presenter = presenter
    }

    func wire(listener: any LoggedOutNapkinListener) {
        self.listener = listener
    }

    func didSubmit(name: String) async {
        do {
            try await listener?.loggedOutDidSubmit(name: name)
        } catch let error as LoginError {
            await presenter.present(error: error.description, draft: name)
        } catch {
            await presenter.present(error: "The smokehouse door stuck. Please try again.", draft: name)
        }
    }
}
