import NapkinWeb
import napkin

@MainActor
protocol LoggedOutNapkinPresentable: Presentable {
    func present(error: String, draft: String)
}

/// The form's state: what was typed and, after a refused name, why.
@MainActor
@Observable
final class LoggedOutNapkinPresenter: Presenter<LoggedOutNapkinViewController>, LoggedOutNapkinPresentable, StatePresenting {
    private(set) var draft = ""
    private(set) var error: String?

    func present(error: String, draft: String) {
        self.error = error
        self.draft = draft
    }

    var state: some Encodable { ["draft": draft, "error": error] }
}
