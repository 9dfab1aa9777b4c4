import NapkinWeb
import napkin

/// How LoggedOut talks up to its parent: "this guest wants in as `name`".
/// The parent signs the guest in, or throws a `LoginError` to refuse.
protocol LoggedOutNapkinListener: AnyObject, Sendable {
    func loggedOutDidSubmit(name: String) async throws
}

/// Passes the name up; a refused name becomes the form's message. It never
/// routes: once the guest is signed in, the Launch napkin replaces it.
final actor LoggedOutNapkinInteractor: Interactable {
    private let listener: any LoggedOutNapkinListener

    init(listener: any LoggedOutNapkinListener) {
        self.listener = listener
    }

    func didSubmit(name: String) async throws {
        do {
            try await listener.loggedOutDidSubmit(name: name)
        } catch let refusal as LoginError {
            throw FormError(refusal.description, field: "name")
        }
    }
}
