import Testing
@testable import NapkinHTTP

@Suite("The Accept field's media ranges", .timeLimit(.minutes(1)))
struct AcceptFieldTests {
    private func request(_ accept: String...) -> Request {
        var headers = HTTPHeaders()
        for value in accept { headers.add(name: "Accept", value: value) }
        return Request(method: .get, path: "/", headers: headers)
    }

    @Test("a browser's page load lists text/html and */*, not JSON")
    func browser() {
        let page = request("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8")
        #expect(page.acceptFieldLists("text/html"))
        #expect(page.acceptFieldLists("*/*"))
        #expect(!page.acceptFieldLists("application/json"))
        #expect(!page.acceptFieldLists("text/*"))
    }

    @Test("ranges compare without case, around spaces, parameters set aside")
    func caseSpacesAndParameters() {
        #expect(request(" Application/JSON ; charset=utf-8").acceptFieldLists("application/json"))
        #expect(request("text/plain,\tTEXT/HTML;level=1 , x/y").acceptFieldLists("text/html"))
    }

    @Test("a range is matched whole, never as a piece of a longer one")
    func wholeRanges() {
        #expect(!request("application/json-seq").acceptFieldLists("application/json"))
        #expect(!request("xtext/html").acceptFieldLists("text/html"))
        #expect(!request("text/htm").acceptFieldLists("text/html"))
        #expect(!request("application/vnd.api+json").acceptFieldLists("application/json"))
    }

    @Test("every Accept field counts; a request without one, or an empty one, lists nothing")
    func fields() {
        #expect(request("image/png", "application/json").acceptFieldLists("application/json"))
        #expect(!request().acceptFieldLists("*/*"))
        #expect(!request("").acceptFieldLists(""))
        #expect(!request(",,;").acceptFieldLists("text/html"))
    }

    @Test("a separator followed by a combining mark still separates: the field is read as bytes")
    func bytes() {
        #expect(request("x/y,\u{301}text/html").acceptFieldLists("\u{301}text/html"))
        #expect(request("x/y;\u{301},text/html").acceptFieldLists("text/html"))
    }
}
