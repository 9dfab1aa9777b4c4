import Foundation
import Testing
@testable import NapkinHTTP

/// Large static files go from disk to the socket, never whole into memory.
@Suite("Large static files", .timeLimit(.minutes(1)))
struct LargeFileTests {
    static let size = 3 << 20

    static func makeRoot() throws -> String {
        let root = NSTemporaryDirectory() + "napkin-large-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(expected).write(to: URL(fileURLWithPath: root + "/movie.mp4"))
        return root
    }

    /// The file's bytes: a pattern that a misplaced chunk would break.
    static let expected: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        }
        return bytes
    }()

    @Test("a large file's response is a file region, not bytes in memory")
    func regionNotBytes() async throws {
        let files = StaticFiles(directory: try Self.makeRoot())
        let response = try await files.respond(to: Request(method: .get, target: "/movie.mp4"))
        guard case .file(let region) = response.body else {
            Issue.record("expected a file region")
            return
        }
        #expect(region.offset == 0 && region.length == Self.size)
        #expect(response.headers["Content-Type"] == "video/mp4")
    }

    @Test("six parallel downloads over real sockets each get every byte")
    func parallelDownloads() async throws {
        var router = HTTPRouter()
        router.fallback(StaticFiles(directory: try Self.makeRoot()))
        let expected = Self.expected
        try await withServer(router) { server in
            let port = server.port
            try await withThrowingTaskGroup(of: TestConnection.Reply.self) { group in
                for _ in 0..<6 { group.addTask { try await fetch(port, "/movie.mp4") } }
                for try await reply in group {
                    #expect(reply.status == 200)
                    #expect(reply.header("Content-Length") == String(Self.size))
                    #expect(reply.body == expected)
                }
            }
            let head = try await offPool { try TestConnection(port: port).request("HEAD", "/movie.mp4") }
            #expect(head.header("Content-Length") == String(Self.size))
        }
    }
}
