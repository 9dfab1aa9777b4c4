import NapkinWeb
import napkin

/// The fields of the login form.
struct LoginForm: Decodable {
    var name: String?
}

/// The paper-cream welcome: kicker, hero, rule, and the name form.
final class LoggedOutNapkinViewController: WebViewController {
    weak var presenter: LoggedOutNapkinPresenter?
    weak var listener: (any LoggedOutNapkinPresentableListener)?

    override init() {
        super.init()
        action("login", as: LoginForm.self) { [weak self] form in
            await self?.listener?.didSubmit(name: form.name ?? "")
        }
    }

    override func body() -> HTML {
        let error = presenter?.error
        let invalid: HTML = error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"rh-name-error\""
        let message: HTML? = error.map { "<p class=\"error\" id=\"rh-name-error\" role=\"alert\">\($0)</p>" }
        let fields: HTML = """
            <label for="rh-name">Your name</label>\
            <input type="text" id="rh-name" name="name" value="\(presenter?.draft ?? "")" maxlength="\(LoginError.nameLimit)" \
            autocomplete="nickname" autocapitalize="words" spellcheck="false"\(invalid)>\
            \(message)\
            <button type="submit" class="ink">Login →</button>
            """
        return """
            <main class="rh-out">\
            <p class="kicker">§ 00 · Welcome</p>\
            <h1 class="hero">Step inside the smokehouse.</h1>\
            <hr class="rule">\
            \(form("login", class: "login", content: fields))\
            </main>
            """
    }
}
