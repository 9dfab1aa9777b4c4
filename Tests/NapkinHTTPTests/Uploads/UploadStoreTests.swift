import Foundation
import Testing
@testable import NapkinHTTP

/// Kept uploads: only what the store accepts is kept, under an id that
/// names nothing the uploader chose, served so that a browser can never
/// take it for a page, and no more than the store's capacity.
@Suite(.timeLimit(.minutes(1))) struct UploadStoreTests {
    static let png: [UInt8] = pngBytes + [UInt8](repeating: 7, count: 64)

    static func store(capacity: Int = 64) -> UploadStore {
        UploadStore(
            directory: NSTemporaryDirectory() + "napkin-store-\(UUID().uuidString)", types: ["jpg": .jpeg, "png": .png], maxBytes: 1024,
            capacity: capacity)
    }

    /// An upload as the server hands it over: its bytes in a temporary file.
    static func upload(_ bytes: [UInt8], name: String = "x.png", type: String = "image/png") throws -> UploadedFile {
        let path = NSTemporaryDirectory() + "napkin-upload-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return UploadedFile(fileName: name, declaredType: type, size: bytes.count, path: path, leadingBytes: Array(bytes.prefix(16)))
    }

    @Test("a file of an accepted type is kept under a fresh id with its type's extension, and served with safe headers")
    func keepsAndServes() throws {
        let store = Self.store()
        let id = try store.keep(try Self.upload(Self.png, name: "../../evil.html"))
        #expect(id.wholeMatch(of: /[0-9a-f]{32}\.png/) != nil, "\(id)")
        #expect(store.type(of: id) == .png)
        let response = try #require(store.response(for: id))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/png")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Content-Disposition"] == "inline")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.directory + "/" + id)) == Data(Self.png))
        #expect(try store.keep(try Self.upload(Self.png)) != id)
    }

    @Test("a type lie, a file too large or of another type is refused with the reason, and nothing is kept")
    func refusals() throws {
        let store = Self.store()
        let refused: [(UploadedFile, UploadStore.Refusal)] = [
            (try Self.upload(Array("<html><script>alert(1)</script></html>".utf8)), .notAccepted),
            (try Self.upload([0xFF, 0xD8, 0xFF, 0xE0] + Self.png), .notAccepted),
            (try Self.upload(Array("GIF89a....".utf8), name: "x.gif", type: "image/gif"), .notAccepted),
            (try Self.upload(Self.png + [UInt8](repeating: 0, count: 1024)), .tooLarge(maxBytes: 1024)),
        ]
        for (file, refusal) in refused {
            #expect(throws: refusal) { try store.keep(file) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty)
        #expect(UploadStore.Refusal.tooLarge(maxBytes: 2 << 20).description == "The file is larger than 2 MiB.")
        #expect(UploadStore.Refusal.tooLarge(maxBytes: 1000).description == "The file is larger than 1000 bytes.")
    }

    @Test("only ids of the store's shape and types are looked up or served")
    func onlyItsOwnIDs() throws {
        let store = Self.store()
        let hex = "0123456789abcdef0123456789abcdef"
        for id in ["../etc/passwd", "\(hex).html", hex, ".png", "\(hex.uppercased()).png", "\(hex).png/..", "\(hex).p.ng", "\(hex).", "é\(hex).png"] {
            #expect(store.type(of: id) == nil, "\(id)")
            #expect(store.response(for: id) == nil, "\(id)")
        }
        #expect(UploadStore.isWellFormedID("\(hex).webp") && store.type(of: "\(hex).webp") == nil)
        #expect(!UploadStore.isWellFormedID("\(hex).PNG") && !UploadStore.isWellFormedID("../\(hex).png"))
        // Well formed and of its types, but never kept.
        #expect(store.type(of: "\(hex).jpg") == .jpeg && store.response(for: "\(hex).jpg") == nil)
    }

    @Test("the oldest files go past the capacity")
    func capacity() throws {
        let store = Self.store(capacity: 3)
        for _ in 0..<5 { _ = try store.keep(try Self.upload(Self.png)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).count == 3)
    }

    @Test("served on a router at a prefix: a kept file is 200, any other name a 404")
    func servedOnARouter() async throws {
        let store = Self.store()
        let id = try store.keep(try Self.upload(Self.png))
        var router = HTTPRouter()
        store.serve(at: "/files", on: &router)
        #expect(try await router.respond(to: Request(method: .get, target: "/files/\(id)")).status == .ok)
        let missing = await #expect(throws: HTTPError.self) { try await router.respond(to: Request(method: .get, target: "/files/x.png")) }
        #expect(missing?.status == .notFound)
    }
}
