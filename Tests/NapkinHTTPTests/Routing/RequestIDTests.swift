import Foundation
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct RequestIDTests {
    static let proxy = "10.0.0.1:4000"

    static func router(_ log: LogSink, format: AccessLog.Format = .text) -> HTTPRouter {
        var router = HTTPRouter()
        let ids = RequestIDs { $0.peer == proxy }
        router.use(AccessLog(sink: log.write, format: format, requestIDs: ids))
        router.use(ErrorMiddleware(log: log.write))
        router.get("/seen") { request in .text("\(request.id ?? "none") \(request.headers[RequestIDs.header] ?? "none")") }
        router.get("/boom") { _ in throw CocoaError(.fileNoSuchFile) }
        return router
    }

    static func request(_ target: String, id: String? = nil, peer: String? = nil) -> Request {
        var headers: HTTPHeaders = [:]
        if let id { headers[RequestIDs.header] = id }
        var request = Request(method: .get, target: target, headers: headers)
        request.peer = peer
        return request
    }

    @Test("a request gets a new id: the handler sees it, the response returns it, the access line ends with it")
    func madeID() async throws {
        let log = LogSink()
        let router = Self.router(log)
        let first = try await router.respond(to: Self.request("/seen"))
        let second = try await router.respond(to: Self.request("/seen"))
        let id = try #require(first.headers[RequestIDs.header])
        #expect(bodyText(first) == "\(id) none")
        #expect(second.headers[RequestIDs.header] != id)
        #expect(log.all.first?.hasSuffix("µs \(id)") == true)
    }

    @Test("made ids are 15 well-formed characters, one process prefix, never repeated")
    func madeIDsAreShortAndUnique() {
        let ids = (0..<10_000).map { _ in RequestIDs.make() }
        #expect(ids.allSatisfy { $0.utf8.count == 15 && RequestIDs.isWellFormed($0) })
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.prefix(7) }).count == 1)
    }

    @Test("a trusted proxy's id is kept; a client's, or a malformed one, is replaced")
    func passedOnID() async throws {
        let log = LogSink()
        let router = Self.router(log)
        let kept = try await router.respond(to: Self.request("/seen", id: "edge-42.abc:1", peer: Self.proxy))
        #expect(kept.headers[RequestIDs.header] == "edge-42.abc:1")
        #expect(bodyText(kept) == "edge-42.abc:1 edge-42.abc:1")
        let forged = try await router.respond(to: Self.request("/seen", id: "chosen-by-client", peer: "203.0.113.9:5000"))
        let replaced = try #require(forged.headers[RequestIDs.header])
        #expect(replaced != "chosen-by-client")
        #expect(bodyText(forged) == "\(replaced) \(replaced)")
        for bad in ["", "two words", "new\nline", String(repeating: "a", count: 129), "quote\"d"] {
            let replaced = try await router.respond(to: Self.request("/seen", id: bad, peer: Self.proxy))
            #expect(replaced.headers[RequestIDs.header] != bad)
            #expect(RequestIDs.isWellFormed(replaced.headers[RequestIDs.header] ?? ""))
        }
    }

    @Test("a static file's answers are logged with their ids but sent without them, the same answer every time")
    func staticFilesAnswerWithoutID() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("body { }".utf8).write(to: directory.appendingPathComponent("site.css"))
        let log = LogSink()
        var router = Self.router(log)
        let files = StaticFiles(directory: directory.path)
        router.fastPath { files.lookup($0) }
        let first = try await router.respond(to: Self.request("/site.css"))
        let second = try await router.respond(to: Self.request("/site.css"))
        #expect(bodyText(first) == "body { }")
        #expect(first.headers[RequestIDs.header] == nil)
        #expect(first.headers.sameFields(as: second.headers))
        // A HEAD and a revalidation (304) are static answers too.
        let head = try await router.respond(to: Request(method: .head, target: "/site.css"))
        var revalidation = Self.request("/site.css")
        revalidation.headers["If-None-Match"] = first.headers["ETag"]
        let notModified = try await router.respond(to: revalidation)
        #expect(notModified.status == .notModified)
        #expect(head.headers[RequestIDs.header] == nil && notModified.headers[RequestIDs.header] == nil)
        let lines = log.all
        #expect(lines.count == 4)
        let ids = lines.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(ids.count == 4 && ids.allSatisfy(RequestIDs.isWellFormed) && Set(ids).count == 4)
        // Anything else still carries its id.
        #expect(try await router.respond(to: Self.request("/seen")).headers[RequestIDs.header] != nil)
    }

    @Test("the error log carries the request's id")
    func errorLogCarriesID() async throws {
        let log = LogSink()
        let response = try await Self.router(log).respond(to: Self.request("/boom", id: "trace-7", peer: Self.proxy))
        #expect(response.status.code == 500)
        #expect(log.all.contains { $0.hasPrefix("error [trace-7]: GET /boom") })
    }

    @Test("JSON lines: one object per line, the path escaped as in a text line, then as JSON")
    func jsonLines() async throws {
        let log = LogSink()
        let router = Self.router(log, format: .json)
        _ = try await router.respond(to: Request(method: .get, path: "/a\"b\\c\nd\u{1b}é"))
        _ = try await router.respond(to: Self.request("/seen", id: "trace-8", peer: Self.proxy))
        let lines = log.all
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { !$0.contains("\n") })
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects[0]["path"] as? String == #"/a"b\x5cc\x0ad\x1b\xc3\xa9"#)
        #expect(objects[0]["status"] as? Int == 404)
        #expect(objects[1]["path"] as? String == "/seen")
        #expect(objects[1]["method"] as? String == "GET")
        #expect(objects[1]["bytes"] as? Int == "trace-8 trace-8".utf8.count)
        #expect(objects[1]["request_id"] as? String == "trace-8")
        #expect(objects[1]["micros"] is Int)
    }

    @Test("with the JSON format the error log writes one object per line, its id included")
    func jsonErrorLine() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: { _ in }, requestIDs: .made))
        router.use(ErrorMiddleware(log: log.write, format: .json))
        router.get("/boom/:what") { _ in throw CocoaError(.fileNoSuchFile) }
        let response = try await router.respond(to: Request(method: .get, path: "/boom/a\nb"))
        #expect(response.status.code == 500)
        let line = try #require(log.all.first)
        #expect(!line.contains("\n"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "error")
        #expect(object["path"] as? String == #"/boom/a\x0ab"#)
        #expect(object["request_id"] as? String == response.headers[RequestIDs.header])
        #expect((object["error"] as? String)?.contains("CocoaError") == true)
    }
}
