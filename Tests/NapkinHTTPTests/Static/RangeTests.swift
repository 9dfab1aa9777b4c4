import Foundation
import Testing
@testable import NapkinHTTP

/// `Range` requests over a real socket: one range with 206, nothing with
/// 416, anything else the whole file.
@Suite("Byte ranges", .timeLimit(.minutes(1)))
struct RangeTests {
    @Test("a small file: a range, a suffix, past the end, malformed, and If-Range")
    func smallFile() async throws {
        let (root, _) = try StaticFilesTests.makeRoot()
        try await withServer(StaticFilesTests.router(root)) { server in
            let whole = try await fetch(server.port, "/napkin.js")
            #expect(whole.header("Accept-Ranges") == "bytes")
            let etag = try #require(whole.header("ETag"))

            let first = try await fetch(server.port, "/napkin.js", headers: [("Range", "bytes=0-6")])
            #expect(first.status == 206)
            #expect(first.text == "console")
            #expect(first.header("Content-Range") == "bytes 0-6/14")
            #expect(first.header("Content-Length") == "7")

            let suffix = try await fetch(server.port, "/napkin.js", headers: [("Range", "bytes=-3")])
            #expect(suffix.status == 206 && suffix.text == "(1)")

            let past = try await fetch(server.port, "/napkin.js", headers: [("Range", "bytes=100-200")])
            #expect(past.status == 416)
            #expect(past.header("Content-Range") == "bytes */14")

            for malformed in ["bytes=5-1", "lines=0-1", "bytes=0-1,4-5", "bytes=abc", "bytes=99999999999999999999999-"] {
                let reply = try await fetch(server.port, "/napkin.js", headers: [("Range", malformed)])
                #expect(reply.status == (malformed.hasSuffix("-") ? 416 : 200), "\(malformed)")
            }

            let current = try await fetch(server.port, "/napkin.js", headers: [("Range", "bytes=8-"), ("If-Range", etag)])
            #expect(current.status == 206 && current.text == "log(1)")
            let stale = try await fetch(server.port, "/napkin.js", headers: [("Range", "bytes=8-"), ("If-Range", "\"old\"")])
            #expect(stale.status == 200 && stale.text == "console.log(1)")

            let head = try await offPool { try TestConnection(port: server.port).request("HEAD", "/napkin.js", headers: [("Range", "bytes=0-3")]) }
            #expect(head.status == 206)
            #expect(head.header("Content-Length") == "4")
        }
    }

    @Test("a range of a large file comes from disk, exactly")
    func largeFile() async throws {
        var router = HTTPRouter()
        router.fallback(StaticFiles(directory: try LargeFileTests.makeRoot()))
        try await withServer(router) { server in
            let reply = try await fetch(server.port, "/movie.mp4", headers: [("Range", "bytes=1048576-1048675")])
            #expect(reply.status == 206)
            #expect(reply.body == Array(LargeFileTests.expected[1_048_576...1_048_675]))
            #expect(reply.header("Content-Range") == "bytes 1048576-1048675/\(LargeFileTests.size)")
            let tail = try await fetch(server.port, "/movie.mp4", headers: [("Range", "bytes=-10")])
            #expect(tail.body == Array(LargeFileTests.expected.suffix(10)))
        }
    }
}
