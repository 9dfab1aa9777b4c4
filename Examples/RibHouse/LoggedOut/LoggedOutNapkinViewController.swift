import NapkinWeb
import napkin

/// The form's state: what was typed and, after a refused name, why.
@MainActor @Observable
final class LoggedOutNapkinPresenter: Presentable, StatePresenting {
    private(set) var draft = ""
    private(set) var error: String?

    func present(error: String, draft: String) {
        (self.error, self.draft) = (error, draft)
    }

    var state: some Encodable { ["draft": draft, "error": error] }
}

/// The fields of the login form.
struct LoginForm: Decodable {
    var name: String?
}

/// The paper-cream welcome: kicker, hero, rule, and the name form.
final class LoggedOutNapkinViewController: WebViewController {
    let presenter: LoggedOutNapkinPresenter

    init(presenter: LoggedOutNapkinPresenter, listener: LoggedOutNapkinInteractor) {
        self.presenter = presenter
        super.init()
        action("login", as: LoginForm.self) { form in await listener.didSubmit(name: form.name ?? "") }
    }

    override func body() -> HTML {
        let invalid: HTML = presenter.error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"rh-name-error\""
        let message: HTML? = presenter.error.map { "<p class=\"error\" id=\"rh-name-error\" role=\"alert\">\($0)</p>" }
        return """
            <main class="rh-out"><p class="kicker">§ 00 · Welcome</p>\
            <h1 class="hero">Step inside the smokehouse.</h1><hr class="rule">\
            \(form("login", class: "login", content: """
                <label for="rh-name">Your name</label>\
                <input type="text" id="rh-name" name="name" value="\(presenter.draft)" maxlength="\(LoginError.nameLimit)" \
                autocomplete="nickname" autocapitalize="words" spellcheck="false"\(invalid)>\
                \(message)<button type="submit" class="ink">Login →</button>
                """))</main>
            """
    }
}
