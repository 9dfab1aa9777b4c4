import NapkinWeb

/// The fields of the login form.
struct LoginForm: Decodable {
    var name: String?
}

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
