import Foundation
@_spi(Napkin) import NapkinSupport
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct StaticFilesTests {
    @Test("the plain-path shortcut agrees with splitting on every short path of slashes, dots, backslashes and NULs")
    func plainRelativePathAgrees() {
        let alphabet = ["a", "/", ".", "\\", "\0", "é"]
        var paths = [""]
        var checked = 0
        for _ in 0..<6 {
            paths = paths.flatMap { path in alphabet.map { path + $0 } }
            for path in paths {
                let general = StaticFiles.relativePath(path)
                if let plain = StaticFiles.plainRelativePath(path) {
                    #expect(plain == general, "\(path.debugDescription)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
        #expect(StaticFiles.plainRelativePath("/favicon.svg") == "favicon.svg")
        #expect(StaticFiles.plainRelativePath("/css/site.css") == "css/site.css")
    }

    /// A fresh Public-like directory, with a secret next to it and a symlink pointing out.
    static func makeRoot() throws -> (root: String, outside: String) {
        let base = NSTemporaryDirectory() + "napkin-static-\(UUID().uuidString)"
        let root = base + "/Public"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        try "body{}".write(toFile: root + "/css/site.css", atomically: true, encoding: .utf8)
        try "console.log(1)".write(toFile: root + "/napkin.js", atomically: true, encoding: .utf8)
        try "<h1>hi</h1>".write(toFile: root + "/index.html", atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: root + "/logo.png"))
        try "hidden".write(toFile: root + "/.env", atomically: true, encoding: .utf8)
        try "top secret".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/escape.txt", withDestinationPath: base + "/secret.txt")
        try fm.createSymbolicLink(atPath: root + "/up", withDestinationPath: base)
        try fm.createSymbolicLink(atPath: root + "/inside.css", withDestinationPath: root + "/css/site.css")
        return (root, base)
    }

    static func router(_ root: String) -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/api/ping") { _ in .text("pong") }
        router.fallback(StaticFiles(directory: root))
        return router
    }

    @Test func servesFilesWithTypesAndValidators() async throws {
        let (root, _) = try Self.makeRoot()
        try await withServer(Self.router(root)) { server in
            let css = try await fetch(server.port, "/css/site.css")
            #expect(css.status == 200)
            #expect(css.text == "body{}")
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.header("Cache-Control") == "public, max-age=300")
            #expect(css.header("Last-Modified")?.hasSuffix(" GMT") == true)
            let etag = try #require(css.header("ETag"))
            #expect(try await fetch(server.port, "/napkin.js").header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(try await fetch(server.port, "/logo.png").header("Content-Type") == "image/png")
            #expect(try await fetch(server.port, "/index.html").header("Content-Type") == "text/html; charset=utf-8")
            #expect(try await fetch(server.port, "/inside.css").status == 200)

            let cached = try await fetch(server.port, "/css/site.css", headers: [("If-None-Match", etag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(cached.header("ETag") == etag)
            // A weak tag, as a proxy that compressed the file may send back,
            // still names this version (If-None-Match compares weakly).
            #expect(try await fetch(server.port, "/css/site.css", headers: [("If-None-Match", "\"other\", W/\(etag)")]).status == 304)
            let stale = try await fetch(server.port, "/css/site.css", headers: [("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
            let since = try await fetch(server.port, "/css/site.css", headers: [("If-Modified-Since", css.header("Last-Modified")!)])
            #expect(since.status == 304)

            let head = try await fetch(server.port, "HEAD", "/css/site.css")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "6")
            #expect(head.header("ETag") == etag)
        }
    }

    @Test func changedFileGetsNewETag() async throws {
        let (root, _) = try Self.makeRoot()
        let files = StaticFiles(directory: root, revalidateAfter: .zero)
        let first = try await files.respond(to: Request(method: .get, target: "/napkin.js"))
        try "console.log(22)".write(toFile: root + "/napkin.js", atomically: true, encoding: .utf8)
        let second = try await files.respond(to: Request(method: .get, target: "/napkin.js"))
        #expect(first.headers["ETag"] != second.headers["ETag"])
        guard case .bytes(let bytes) = second.body else { Issue.record("expected bytes"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == "console.log(22)")
    }

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let now = Locked<ContinuousClock.Instant>(ContinuousClock.now)
        func read() -> ContinuousClock.Instant { now.withLock { $0 } }
        func advance(by duration: Duration) { now.withLock { $0 += duration } }
    }

    @Test func changedFileIsSeenAfterTheRevalidationInterval() async throws {
        let (root, _) = try Self.makeRoot()
        let clock = ManualClock()
        let files = StaticFiles(directory: root, revalidateAfter: .seconds(1), clock: clock.read)
        func body() -> String? {
            guard case .bytes(let bytes)? = files.lookup(Request(method: .get, target: "/napkin.js"))?.body else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(body() == "console.log(1)")
        try "console.log(22)".write(toFile: root + "/napkin.js", atomically: true, encoding: .utf8)
        // Within the interval the cached answer stands: no `stat`.
        clock.advance(by: .milliseconds(999))
        #expect(body() == "console.log(1)")
        // Past it, the file system is asked again and the new file is served.
        clock.advance(by: .milliseconds(2))
        #expect(body() == "console.log(22)")
        // A file removed is gone once the interval has passed again.
        try FileManager.default.removeItem(atPath: root + "/napkin.js")
        #expect(body() == "console.log(22)")
        clock.advance(by: .seconds(1))
        #expect(body() == nil)
    }

    /// A page's path names no file: remembered as missing, it costs no
    /// `stat` until the interval passes, and a file added there is then served.
    @Test func aMissingPathIsRememberedForTheRevalidationInterval() async throws {
        let (root, _) = try Self.makeRoot()
        let clock = ManualClock()
        let files = StaticFiles(directory: root, revalidateAfter: .seconds(1), clock: clock.read)
        let request = Request(method: .get, target: "/pit")
        #expect(files.lookup(request) == nil)
        try "late".write(toFile: root + "/pit", atomically: true, encoding: .utf8)
        clock.advance(by: .milliseconds(999))
        #expect(files.lookup(request) == nil, "still remembered as missing: the file system was not asked")
        clock.advance(by: .milliseconds(2))
        #expect(files.lookup(request)?.status == .ok)
    }

    /// Made-up paths fill the cache up to its bound, then it starts again:
    /// a file served before is still served, and memory stays bounded.
    @Test func madeUpPathsCannotGrowTheCache() async throws {
        let (root, _) = try Self.makeRoot()
        let files = StaticFiles(directory: root, revalidateAfter: .seconds(60), clock: ManualClock().read)
        #expect(files.lookup(Request(method: .get, target: "/napkin.js"))?.status == .ok)
        for n in 0..<5_000 { #expect(files.lookup(Request(method: .get, target: "/made-up-\(n)")) == nil) }
        #expect(files.lookup(Request(method: .get, target: "/napkin.js"))?.status == .ok)
        #expect(files.cachedEntryCount <= 1_024)
    }

    @Test(arguments: [
        "/../secret.txt", "/css/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/secret.txt",
        "/..%2fsecret.txt", "/css%2fsite.css", "/..%5csecret.txt", "/css\\..\\..\\secret.txt",
        "/napkin.js%00.png", "/escape.txt", "/up/secret.txt", "/.env", "/css", "/css/", "/empty", "/", "/missing.css",
    ])
    func traversalAndListingsAre404(target: String) async throws {
        let (root, _) = try Self.makeRoot()
        try await withServer(Self.router(root)) { server in
            let reply = try await fetch(server.port, target)
            #expect(reply.status == 404)
            #expect(!reply.text.contains("top secret"))
            #expect(!reply.text.contains("site.css"))
        }
    }

    @Test func lookupReturnsNilOnMissAndRespondThrows404() async throws {
        let (root, _) = try Self.makeRoot()
        let files = StaticFiles(directory: root)
        #expect(files.lookup(Request(method: .get, target: "/nope")) == nil)
        #expect(files.lookup(Request(method: .post, target: "/napkin.js")) == nil)
        #expect(files.lookup(Request(method: .get, target: "/napkin.js")) != nil)
        await #expect(throws: HTTPError.self) { try await files.respond(to: Request(method: .get, target: "/nope")) }
    }
}
