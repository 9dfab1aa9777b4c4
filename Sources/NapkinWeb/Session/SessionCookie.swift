import NapkinHTTP

extension NapkinConfiguration {
    /// The session cookie carrying `id`: named ``sessionCookieName``,
    /// `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` when configured.
    func sessionCookie(id: String) -> Cookie {
        var cookie = Cookie(name: sessionCookieName, value: id)
        cookie.path = "/"
        cookie.httpOnly = true
        cookie.sameSite = .lax
        cookie.secure = secureCookies
        return cookie
    }
}
