import Foundation
import NapkinHTTP
@_spi(Napkin) import NapkinSupport
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

        // posix_spawn, not Foundation's `Process`: on this toolchain
        // `Process.run()` now and then reads past a buffer while it lists
        // /proc/self/fd, and the test process crashes (fixed in
        // swift-corelibs-foundation after 6.3.1).
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outFile.path, O_WRONLY | O_TRUNC, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errFile.path, O_WRONLY | O_TRUNC, 0)
        // Nothing else of the test process: bash would hold other tests'
        // sockets open (a Redis test waiting for its connection to close
        // waited for this script to end).
        SpawnActions.closeInheritedDescriptors(&actions)
        let arguments = ["/bin/bash", "-c", "cd \"$1\" && exec /bin/bash -e -o pipefail \"$2\"", "bash", directory.path, scriptFile.path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var spawnedPID: pid_t = 0
        let spawned = posix_spawn(&spawnedPID, "/bin/bash", &actions, nil, &argv, environ)
        let pid = spawnedPID
        guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start bash (error \(spawned))"]) }
        let watchdog = Task { [pid] in
            try await Task.sleep(for: limit)
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        // Waited for on a thread of its own: never block a cooperative
        // thread, the server under test needs them.
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                // Exited: its code; killed by a signal: 128 + the signal, as a shell says.
                continuation.resume(returning: raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f))
            }
        }
        return Outcome(
            status: status,
            output: try String(contentsOf: outFile, encoding: .utf8),
            errors: try String(contentsOf: errFile, encoding: .utf8))
    }
}
