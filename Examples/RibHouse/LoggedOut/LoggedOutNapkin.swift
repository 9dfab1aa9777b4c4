import NapkinWeb

/// LoggedOut needs nothing from above: it only reports a name upward.
protocol LoggedOutNapkinDependency: Dependency {}

/// Builds the signed-out screen: the name form. A leaf with no state of its
/// own (napkin keeps a refused name's message), so it has neither a router
/// class nor a presenter.
final class LoggedOutNapkinBuilder: Builder<any LoggedOutNapkinDependency>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor func build(listener: any LoggedOutNapkinListener) -> ViewableRouter<LoggedOutNapkinInteractor, LoggedOutNapkinViewController> {
        let interactor = LoggedOutNapkinInteractor(listener: listener)
        return ViewableRouter(interactor: interactor, viewController: LoggedOutNapkinViewController(listener: interactor))
    }
}

/// How LoggedOut talks up to its parent: "this guest wants in as `name`".
/// The parent signs the guest in, or throws a `LoginError` to refuse.
protocol LoggedOutNapkinListener: AnyObject, Sendable {
    func loggedOutDidSubmit(name: String) async throws
}

/// Passes the name up; a refused name's `LoginError` becomes the form's
/// message (it is a `FormErrorConvertible`). It never routes: once the
/// guest is signed in, the Launch napkin replaces it.
final actor LoggedOutNapkinInteractor: Interactable {
    private let listener: any LoggedOutNapkinListener

    init(listener: any LoggedOutNapkinListener) { self.listener = listener }

    func didSubmit(name: String) async throws {
        try await listener.loggedOutDidSubmit(name: name)
    }
}

/// The fields of the login form.
struct LoginForm: Decodable { var name: String? }

extension FormAction where Input == LoginForm {
    /// Sign in as the name typed.
    static var login: FormAction<LoginForm> { FormAction("login") }
}

/// The paper-cream welcome: kicker, hero, rule, and the name form. A refused
/// name comes back with its message beside the field, the field marked and
/// the name as typed: the field helper does all three.
final class LoggedOutNapkinViewController: WebViewController {
    init(listener: LoggedOutNapkinInteractor) {
        super.init()
        action(.login) { form in try await listener.didSubmit(name: form.name ?? "") }
    }

    override func body() -> HTML {
        """
        <main class="rh-out"><p class="kicker">§ 00 · Welcome</p>\
        <h1 class="hero">Step inside the smokehouse.</h1><hr class="rule">\
        \(form(.login, class: "login", content: """
            \(field("name", label: "Your name", of: .login, id: "rh-name", attributes: """
                maxlength="\(LoginError.nameLimit)" autocomplete="nickname" autocapitalize="words" spellcheck="false"
                """))\
            \(submitButton("Login →", working: "Stepping in…", class: "ink"))
            """))</main>
        """
    }
}
