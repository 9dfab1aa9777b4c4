import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct HTTPHeadersTests {
    @Test func namesAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        headers["CONTENT-TYPE"] = "text/html"
        #expect(headers.values(for: "Content-Type") == ["text/html"])
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        headers["Set-Cookie"] = nil
        #expect(headers["set-cookie"] == nil)
        #expect(headers.count == 1)
    }

    @Test("set replaces fields of the given names whatever their case, keeps the rest in order, and appends")
    func setReplacesByName() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add(name: "x-frame-options", value: "SAMEORIGIN")
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "X-Frame-Options", value: "ALLOW")
        headers.set([("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin")])
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "X-Frame-Options", "Referrer-Policy"])
        #expect(headers.values(for: "x-frame-options") == ["DENY"])
        headers.set([])
        #expect(headers.count == 4)
    }

    @Test("identical compares bytes: shared storage, equal copies, and canonically equivalent spellings that differ")
    func identicalIsByteForByte() {
        let long = String(repeating: "default-src 'self'; ", count: 8)
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        #expect(HTTPHeaders.identical(long, long))
        #expect(HTTPHeaders.identical(long, copy))
        #expect(!HTTPHeaders.identical(long, String(long.dropLast()) + "!"))
        #expect(HTTPHeaders.identical("short", "short") && !HTTPHeaders.identical("short", "shorT"))
        #expect(HTTPHeaders.identical("", ""))
        // "é" as one scalar and as "e" with a combining accent: equal as strings, not as bytes.
        #expect("caf\u{E9}-etag" == "cafe\u{301}-etag" && !HTTPHeaders.identical("caf\u{E9}-etag", "cafe\u{301}-etag"))
        #expect(!HTTPHeaders.identical("caf\u{E9}", "cafe\u{301}"))
        #expect(HTTPHeaders.same("X-Frame-Options", "x-frame-options") && !HTTPHeaders.same("X-Frame-Options", "X-Frame-Optionz"))
    }

    @Test func methodAndStatusBasics() {
        #expect(HTTPMethod(rawValue: "get") == .get)
        #expect(HTTPMethod.post.description == "POST")
        #expect(HTTPStatus(code: 404) == .notFound)
        #expect(HTTPStatus.notFound.reason == "Not Found")
        #expect(HTTPError(.badRequest).message == "Bad Request")
    }
}
