import Foundation
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct CookieTests {
    @Test func headerValueHasEveryAttribute() {
        let cookie = Cookie(name: "sid", value: "abc", path: "/", domain: "example.com", maxAge: 3600,
                            expires: Date(timeIntervalSince1970: 784_111_777), secure: true, httpOnly: true, sameSite: .lax)
        #expect(cookie.headerValue == "sid=abc; Path=/; Domain=example.com; Max-Age=3600; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Secure; HttpOnly; SameSite=Lax")
        #expect(Cookie(name: "a", value: "b").headerValue == "a=b; Path=/")
    }

    @Test func setCookieFieldsGoOverTheWire() async throws {
        var router = Router()
        router.get("/login") { request in
            var response = Response.text("seen \(request.cookies["old"] ?? "none")")
            response.setCookie(Cookie(name: "sid", value: "1", httpOnly: true, sameSite: .strict))
            response.setCookie(Cookie(name: "theme", value: "dark", maxAge: 60))
            return response
        }
        try await withServer(router) { server in
            let reply = try await fetch(server.port, "/login", headers: [("Cookie", "old=yes; other=1")])
            #expect(reply.text == "seen yes")
            #expect(reply.headerValues("Set-Cookie") == ["sid=1; Path=/; HttpOnly; SameSite=Strict", "theme=dark; Path=/; Max-Age=60"])
        }
    }
}
