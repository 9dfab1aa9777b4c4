import Foundation
import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// napkin.js comes from NapkinWeb itself: every app serves it, with or
/// without a public directory, and browsers revalidate it cheaply.
@Suite("Client script", .timeLimit(.minutes(1)))
@MainActor
struct ClientScriptTests {
    /// The script as it is in the source tree.
    static let source: [UInt8] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/NapkinWeb/Resources/napkin.js").standardized.path
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }()

    @Test("an app with no public directory serves napkin.js: the source file's bytes, typed, with a strong ETag",
          arguments: TestApp.Mode.allCases)
    func served(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let script = try await client.get(WebSession.scriptPath)
        #expect(script.status == 200)
        #expect(!Self.source.isEmpty)
        #expect(script.body == Self.source)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["Cache-Control"] == "no-cache")
        let etag = try #require(script.headers["ETag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 8, "a strong entity tag, not \(etag)")
        #expect(script.headers["X-Content-Type-Options"] == "nosniff")
        #expect(script.headers["Set-Cookie"] == nil)
        #expect(testApp.app.sessionCount == 0)
        // The old path is not napkin's any more: without a public
        // directory it is an unclaimed page.
        #expect(try await client.get("/napkin.js").status == 404)
        await testApp.stop()
    }

    @Test("every page loads it by default, and the default policy lets it run", arguments: TestApp.Mode.allCases)
    func pagesLoadIt(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let page = try await testApp.client().get("/")
        #expect(page.text.contains("<script src=\"/_napkin/napkin.js\" defer></script>"))
        // `script-src 'self'`: a same-origin script file is allowed.
        #expect(page.headers["Content-Security-Policy"]?.contains("script-src 'self';") == true)
        #expect(PageLayout(title: "Any").scripts == [WebSession.scriptPath])
        await testApp.stop()
    }

    @Test("If-None-Match: the current tag, a list, a weak tag and * answer 304; another tag the script",
          arguments: TestApp.Mode.allCases)
    func revalidation(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let etag = try #require(try await client.get(WebSession.scriptPath).headers["ETag"])
        for matching in [etag, "\"old\", \(etag)", "W/\(etag)", "*", " \(etag) ,", "\"a,b\",\(etag)"] {
            let reply = try await client.get(WebSession.scriptPath, headers: ["If-None-Match": matching])
            #expect(reply.status == 304, "If-None-Match: \(matching)")
            #expect(reply.body.isEmpty)
            #expect(reply.headers["ETag"] == etag)
            #expect(reply.headers["Cache-Control"] == "no-cache")
        }
        for other in ["\"old\"", "W/\"old\"", "\(etag.dropLast())x\"", "garbage", "\"unterminated", "**", ""] {
            let reply = try await client.get(WebSession.scriptPath, headers: ["If-None-Match": other])
            #expect(reply.status == 200, "If-None-Match: \(other)")
            #expect(reply.body == Self.source)
        }
        await testApp.stop()
    }

    @Test("HEAD gets the headers and the length without the body; a matching HEAD a 304", arguments: TestApp.Mode.allCases)
    func head(mode: TestApp.Mode) async throws {
        let testApp = try await TestApp.start(mode)
        let client = testApp.client()
        let head = try await client.send(.head, WebSession.scriptPath)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == String(Self.source.count))
        #expect(head.headers["Content-Type"] == "text/javascript; charset=utf-8")
        let etag = try #require(head.headers["ETag"])
        let unchanged = try await client.send(.head, WebSession.scriptPath, headers: ["If-None-Match": etag])
        #expect(unchanged.status == 304)
        #expect(unchanged.headers["ETag"] == etag)
        #expect(try await client.send(.post, WebSession.scriptPath).status == 405)
        await testApp.stop()
    }

    @Test("an app's public directory cannot shadow it, and still serves its own files")
    func beatsPublicFiles() async throws {
        let directory = NSTemporaryDirectory() + "napkin-script-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/_napkin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "alert('not napkin')".write(toFile: directory + "/_napkin/napkin.js", atomically: true, encoding: .utf8)
        try "body {}".write(toFile: directory + "/site.css", atomically: true, encoding: .utf8)
        let testApp = try await TestApp.start(.inProcess, publicDirectory: directory)
        let client = testApp.client()
        #expect(try await client.get(WebSession.scriptPath).body == Self.source)
        #expect(try await client.get("/site.css").text == "body {}")
        await testApp.stop()
    }
}
