import Testing
@testable import NapkinHTTP

/// `If-None-Match` as RFC 9110 reads it: `*`, or a list of entity tags
/// compared weakly.
@Suite("Entity tags", .timeLimit(.minutes(1)))
struct EntityTagTests {
    private func request(_ fields: [String]) -> Request {
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: "If-None-Match", value: field) }
        return Request(method: .get, target: "/app.js", headers: headers)
    }

    @Test("matches: the tag, the tag in a list, weak against strong either way, *, several field lines")
    func matches() {
        let etag = "\"v1\""
        for field in ["\"v1\"", "W/\"v1\"", "\"v0\", \"v1\"", "  \"v1\"  ", "*", " * ", ",\"v1\",", "\"a,b\", W/\"v1\""] {
            #expect(request([field]).ifNoneMatch(etag), "\(field)")
        }
        #expect(request(["\"x\""]).ifNoneMatch("W/\"x\""))
        #expect(request(["\"v0\"", "\"v1\""]).ifNoneMatch(etag))
    }

    @Test("no match: another tag, a prefix, malformed lists, no field at all")
    func misses() {
        let etag = "\"v1\""
        for field in ["\"v2\"", "\"v\"", "\"v1", "v1", "W/v1", "\"v1\" \"v2\"", "\"v 1\"", "\"v0\"; \"v1\"", "**", "", "w/\"v1\""] {
            #expect(!request([field]).ifNoneMatch(etag), "\(field)")
        }
        #expect(!request([]).ifNoneMatch(etag))
        #expect(!request(["*"]).ifNoneMatch("not a tag"))
    }
}
