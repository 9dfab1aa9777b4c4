import NapkinWeb

/// The fields of the login form.
struct LoginForm: Decodable {
    var name: String?
}

/// The paper-cream welcome: kicker, hero, rule, and the name form. A refused
/// name comes back with its message, the field marked and the name as typed.
final class LoggedOutNapkinViewController: WebViewController {
    init(listener: LoggedOutNapkinInteractor) {
        super.init()
        action("login", as: LoginForm.self) { form in try await listener.didSubmit(name: form.name ?? "") }
    }

    override func body() -> HTML {
        let problem = problem(for: "login")
        let invalid: HTML = problem.map { " aria-invalid=\"true\" aria-describedby=\"\($0.id)\"" } ?? ""
        return """
            <main class="rh-out"><p class="kicker">§ 00 · Welcome</p>\
            <h1 class="hero">Step inside the smokehouse.</h1><hr class="rule">\
            \(form("login", class: "login", content: """
                <label for="rh-name">Your name</label>\
                <input type="text" id="rh-name" name="name" value="\(problem?.values["name"] ?? "")" \
                maxlength="\(LoginError.nameLimit)" autocomplete="nickname" autocapitalize="words" spellcheck="false"\(invalid)>\
                <button type="submit" class="ink">Login →</button>
                """))</main>
            """
    }
}
