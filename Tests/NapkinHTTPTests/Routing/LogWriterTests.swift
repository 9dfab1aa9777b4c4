@_spi(Napkin) import NapkinSupport
import Foundation
import Synchronization
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct LogWriterTests {
    /// Every batch the writer hands out, joined.
    final class Output: Sendable {
        private let bytes = Locked<[UInt8]>([])
        private let batches = Atomic<Int>(0)
        func take(_ batch: [UInt8]) {
            bytes.withLock { $0 += batch }
            batches.add(1, ordering: .relaxed)
        }
        var lines: [String] {
            let text = String(decoding: bytes.withLock { $0 }, as: UTF8.self)
            guard !text.isEmpty else { return [] }
            #expect(text.hasSuffix("\n"), "every batch ends on a whole line")
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        var batchCount: Int { batches.load(ordering: .relaxed) }
    }

    @Test func everyLineArrivesInOrderInBatches() async throws {
        let output = Output()
        let writer = LogWriter(interval: .seconds(30), batchBytes: 256, output: output.take)
        for index in 0..<1000 { writer.write("line \(index)") }
        writer.flush()
        #expect(output.lines == (0..<1000).map { "line \($0)" })
        #expect(output.batchCount < 1000, "lines leave in batches, not one write each")
        writer.close()
    }

    @Test func concurrentWritersKeepEachLineWholeAndTheirOwnOrder() async throws {
        let output = Output()
        let writer = LogWriter(interval: .milliseconds(5), batchBytes: 512, output: output.take)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for index in 0..<500 { writer.write("t\(task) \(index)") } }
            }
        }
        writer.close()
        let lines = output.lines
        #expect(lines.count == 8 * 500)
        for task in 0..<8 {
            #expect(lines.filter { $0.hasPrefix("t\(task) ") } == (0..<500).map { "t\(task) \($0)" })
        }
    }

    @Test func theBackgroundThreadFlushesWithoutBeingAsked() async throws {
        let output = Output()
        let writer = LogWriter(interval: .milliseconds(20), output: output.take)
        writer.write("one")
        writer.write("two")
        let deadline = ContinuousClock.now + .seconds(5)
        while output.lines.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(output.lines == ["one", "two"])
        writer.close()
    }

    @Test func closeWritesEverythingStillQueued() async throws {
        let output = Output()
        let writer = LogWriter(interval: .seconds(30), output: output.take)
        for index in 0..<10 { writer.write("queued \(index)") }
        #expect(output.lines.isEmpty, "nothing is written on the caller's thread")
        writer.close()
        #expect(output.lines == (0..<10).map { "queued \($0)" })
    }

    @Test func aFileDescriptorWriterAppendsWholeLines() async throws {
        let path = NSTemporaryDirectory() + "napkin-log-\(UUID().uuidString)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let writer = LogWriter(fileDescriptor: fd)
        for index in 0..<100 { writer.write("GET /\(index) 200 5 1µs") }
        writer.close()
        close(fd)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == (0..<100).map { "GET /\($0) 200 5 1µs\n" }.joined())
        try? FileManager.default.removeItem(atPath: path)
    }

    @Test func anAccessLogOnAWriterWritesTheSameLinesAsOnASink() async throws {
        let output = Output()
        let writer = LogWriter(interval: .seconds(30), output: output.take)
        let sink = LogSink()
        for log in [AccessLog(writer: writer), AccessLog(sink: sink.write)] {
            var router = HTTPRouter()
            router.use(log)
            router.get("/hi") { _ in .text("hello") }
            router.get("/boom") { _ in throw HTTPError(.badRequest, "no") }
            _ = try await router.respond(to: Request(method: .get, target: "/hi?x=1"))
            _ = try await router.respond(to: Request(method: .get, target: "/nope/%C3%A9\\x"))
            _ = try? await router.respond(to: Request(method: .get, target: "/boom"))
        }
        writer.close()
        let strip = { (line: String) in line.split(separator: " ").dropLast().joined(separator: " ") }
        #expect(output.lines.map(strip) == sink.all.map(strip))
        #expect(output.lines.map(strip) == ["GET /hi 200 5", "GET /nope/%C3%A9\\x5cx 404 9", "GET /boom 400 2"])
        #expect(output.lines.allSatisfy { $0.hasSuffix("µs") && Int($0.split(separator: " ").last!.dropLast(2)) != nil })
        var digits: [UInt8] = []
        for value in [0, 7, 10, 99, 1234567, Int.max] {
            digits = []
            AccessLog.appendDecimal(value, to: &digits)
            #expect(String(decoding: digits, as: UTF8.self) == String(value))
        }
    }

    @Test func theFastPathIsLoggedOnceAndGetsFinishingHeaders() async throws {
        let log = LogSink()
        var router = HTTPRouter()
        router.use(AccessLog(sink: log.write))
        router.use(Stamp())
        router.use(ErrorMiddleware())
        router.get("/api/ping") { _ in .text("pong") }
        router.fastPath { request in request.path.hasSuffix(".txt") || request.path.hasPrefix("/api/") ? .text("file") : nil }
        let fast = try await router.respond(to: Request(method: .get, target: "/b.txt"))
        #expect(fast.headers["X-Stamp"] == "1")
        if case .bytes(let bytes) = fast.body { #expect(String(decoding: bytes, as: UTF8.self) == "file") }
        // A path a route claims never reaches the fast path.
        let route = try await router.respond(to: Request(method: .get, target: "/api/ping"))
        if case .bytes(let bytes) = route.body { #expect(String(decoding: bytes, as: UTF8.self) == "pong") }
        // Nor does a POST.
        let post = try await router.respond(to: Request(method: .post, target: "/b.txt"))
        #expect(post.status.code == 404)
        #expect(post.headers["X-Stamp"] == "1")
        let lines = log.all
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("GET /b.txt 200 4 "))
        #expect(lines[1].hasPrefix("GET /api/ping 200 4 "))
        #expect(lines[2].hasPrefix("POST /b.txt 404 "))
    }

    @Test func aMiddlewareGuardsTheFastPathAndImmediateRoutesAsItGuardsWork() async throws {
        struct Gate: Middleware {
            func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
                guard request.headers["X-Key"] == "yes" else { return .now(.text("no", status: .forbidden)) }
                return next(request)
            }
        }
        var router = HTTPRouter()
        router.use(Gate())
        router.fastPath { _ in .text("file") }
        router.get("/now") { _ in .text("now") }
        router.get("/later") { _ async in .text("later") }
        for target in ["/f.txt", "/now", "/later"] {
            #expect(router.answer(Request(method: .get, target: target)).immediateResponse?.status.code == 403)
            var allowed = Request(method: .get, target: target)
            allowed.headers["X-Key"] = "yes"
            #expect(try await router.respond(to: allowed).status.code == 200)
        }
    }
}
