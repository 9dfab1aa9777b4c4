import NapkinHTTP

/// The session cookie: `napkin_session`, `HttpOnly`, `SameSite=Lax`,
/// `Path=/`, `Secure` when configured.
enum SessionCookie {
    static let name = WireProtocol.Cookie.session

    static func make(id: String, secure: Bool) -> Cookie {
        var cookie = Cookie(name: name, value: id)
        cookie.path = "/"
        cookie.httpOnly = true
        cookie.sameSite = .lax
        cookie.secure = secure
        return cookie
    }
}
