import NapkinHTTP
@_spi(Napkin) import NapkinSupport

/// Keeps the dashboard for whoever has its token, when it has one.
///
/// A browser cannot send a bearer header with a page, so the token comes
/// once in the URL (`/_napkin/dashboard?token=…`): the gate answers with a
/// cookie derived from the token (never the token itself) and sends the
/// browser to the same page without it, and the cookie opens every later
/// request of the dashboard, its stream and its forms included. A program
/// may send `Authorization: Bearer …` instead. Anything else is a `401`.
struct DashboardGate: Middleware {
    static let cookieName = "napkin_dashboard_key"
    static let queryName = "token"

    let token: BearerToken
    /// What the cookie carries: derived from the token.
    private let key: String

    init(token: BearerToken) {
        self.token = token
        key = token.derived(for: "napkin dashboard")
    }

    func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        if token.admits(request) { return next(request) }
        if let cookie = request.cookie(Self.cookieName), HMAC.equal(Array(cookie.utf8), Array(key.utf8)) { return next(request) }
        if let presented = request.query[Self.queryName], token.matches(presented.utf8) {
            var response = Response.redirect(to: request.path)
            var cookie = Cookie(name: Self.cookieName, value: key)
            cookie.path = "/"
            cookie.httpOnly = true
            cookie.sameSite = .strict
            response.setCookie(cookie)
            return .now(response)
        }
        var refused = Response.html(
            """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard token needed</title></head>\
            <body><main><h1>Dashboard token needed</h1><p>Open the dashboard with its token once: \
            <code>\(NapkinDashboard.path)?token=…</code></p></main></body></html>
            """, status: .unauthorized)
        refused.headers["WWW-Authenticate"] = "Bearer realm=\"napkin dashboard\""
        return .now(refused)
    }
}
