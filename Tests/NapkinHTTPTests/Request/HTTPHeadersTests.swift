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

    @Test func methodAndStatusBasics() {
        #expect(HTTPMethod(rawValue: "get") == .get)
        #expect(HTTPMethod.post.description == "POST")
        #expect(HTTPStatus(code: 404) == .notFound)
        #expect(HTTPStatus.notFound.reason == "Not Found")
        #expect(HTTPError(.badRequest).message == "Bad Request")
    }
}
