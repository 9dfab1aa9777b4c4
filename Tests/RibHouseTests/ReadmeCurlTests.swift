import Foundation
import NapkinHTTP
import Testing
@testable import RibHouse

/// The README's "Rib House with curl" block, run as written against a live
/// Rib House, so the examples never rot.
@Suite("README curl examples", .timeLimit(.minutes(1)))
@MainActor
struct ReadmeCurlTests {
    /// The repository's README.md, found from this file.
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The ```sh block between the curl-examples markers.
    static func curlBlock() throws -> String {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- curl-examples:start -->"))
        let end = try #require(text.range(of: "<!-- curl-examples:end -->", range: start.upperBound..<text.endIndex))
        let section = text[start.upperBound..<end.lowerBound]
        let open = try #require(section.range(of: "```sh\n"))
        let close = try #require(section.range(of: "\n```", range: open.upperBound..<section.endIndex))
        return String(section[open.upperBound..<close.lowerBound])
    }

    @Test("the block runs against a live Rib House and says what it prints")
    func curlExamplesRun() async throws {
        let block = try Self.curlBlock()
        let expected = block.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("# ⇒ ") else { return nil }
            return String(trimmed.dropFirst("# ⇒ ".count))
        }
        #expect(expected.count >= 6, "the block lost its expectations")
        #expect(block.contains("127.0.0.1:8080"))

        let harness = try await RibHouseHarness.start(.live)
        let port = harness.port
        let script = block.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(harness.port)")
        let result = try await Self.bash(script)
        await harness.stop()

        #expect(result.status == 0, "the block failed:\n\(result.output)\n\(result.errors)")
        var rest = result.output[...]
        for line in expected.map({ $0.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)") }) {
            let found = rest.range(of: line)
            #expect(found != nil, "\"\(line)\" not in the output (in order):\n\(result.output)")
            if let found { rest = rest[found.upperBound...] }
        }
    }

    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `script` with `bash -e -o pipefail` in a fresh temporary
    /// directory; kills it if it runs past `limit` (a failure bound).
    static func bash(_ script: String, limit: Duration = .seconds(60)) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ribhouse-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptFile = directory.appendingPathComponent("examples.sh")
        let outFile = directory.appendingPathComponent("stdout")
        let errFile = directory.appendingPathComponent("stderr")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-e", "-o", "pipefail", scriptFile.path]
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let out = try FileHandle(forWritingTo: outFile)
        let err = try FileHandle(forWritingTo: errFile)
        process.standardOutput = out
        process.standardError = err
        let running = RunningProcess(process)
        let watchdog = Task {
            try await Task.sleep(for: limit)
            running.stop()
        }
        defer { watchdog.cancel() }
        // Never block a cooperative thread: the server under test needs them.
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try out.close()
        try err.close()
        return Outcome(
            status: status,
            output: try String(contentsOf: outFile, encoding: .utf8),
            errors: try String(contentsOf: errFile, encoding: .utf8))
    }
}

/// A process the watchdog may stop from another task.
private final class RunningProcess: @unchecked Sendable {
    // Safe to share: `Process` is thread-safe for `isRunning` and `terminate()`.
    private let process: Process
    init(_ process: Process) { self.process = process }
    func stop() {
        if process.isRunning { process.terminate() }
    }
}
