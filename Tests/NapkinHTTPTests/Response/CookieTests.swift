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
        var router = HTTPRouter()
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

@Suite(.timeLimit(.minutes(1))) struct CookieParsingTests {
    @Test func parsesPairs() {
        #expect(Cookie.parse(header: "a=1; b=\"two\"; c=; =x; flag; a=3") == ["a": "3", "b": "two", "c": ""])
        #expect(Cookie.parse(header: " \tname = value \t") == ["name": "value"])
    }

    /// Regression (found by fuzzing): `;` followed by a combining mark is one Character,
    /// and used to stop separating cookies, unlike in every browser and proxy.
    @Test func separatorsAreBytes() {
        #expect(Cookie.parse(header: "k=v;\u{301}n=1") == ["k": "v", "\u{301}n": "1"])
        #expect(Cookie.parse(header: "k=\u{301}v; a\u{301}=\"\u{301}\"") == ["k": "\u{301}v", "a\u{301}": "\u{301}"])
    }

    /// One cookie looked up by name reads the headers exactly as the whole
    /// dictionary does: the last duplicate wins, across several `Cookie`
    /// fields too, quotes come off, and separators are bytes.
    @Test(arguments: [
        ["a=1; b=2"], ["a=1; a=2"], [" a = \"x\" ;b=2"], ["a=1", "a=3; b=4"], ["b=1"], [";;=;a"],
        ["k=v;\u{301}a=1"], ["a\u{301}=1; a=2"], ["a=\"\""], ["=x; a=1"], [],
    ])
    func oneCookieByName(fields: [String]) {
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: "Cookie", value: field) }
        let request = Request(method: .get, path: "/", headers: headers)
        for name in ["a", "b", "k", "\u{301}a", "a\u{301}", "", "missing"] {
            #expect(request.cookie(name) == request.cookies[name], "\(name) in \(fields)")
        }
    }
}
