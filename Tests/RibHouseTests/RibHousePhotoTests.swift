import Foundation
import NapkinTesting
import NapkinWeb
import Testing
@testable import NapkinHTTP
@testable import RibHouse

/// Announcement photos: kept only when they are the JPEG or PNG they
/// claim, shown in every tab's toast and listed by the API, served so a
/// browser can never take one for a page.
@Suite("Rib House announcement photos", .timeLimit(.minutes(1)))
@MainActor
struct RibHousePhotoTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [UInt8](repeating: 7, count: 64)

    /// An upload as the server would hand it over: its bytes in a temporary file.
    static func upload(_ bytes: [UInt8], name: String = "pit.png", type: String = "image/png") throws -> UploadedFile {
        let path = NSTemporaryDirectory() + "ribhouse-upload-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return UploadedFile(fileName: name, declaredType: type, size: bytes.count, path: path, leadingBytes: Array(bytes.prefix(16)))
    }

    static func announcing(_ harness: RibHouseHarness) -> Announcing {
        Announcing(announcements: harness.ribHouse.component.sharedAnnouncements, photos: harness.ribHouse.component.photos)
    }

    @Test("a photo announced shows in another tab's toast, in GET /api/announcements, and is served safely")
    func photoReachesEveryTab() async throws {
        let harness = try await RibHouseHarness.start(.inProcess)
        let other = harness.client()
        _ = try await other.get("/")
        let stream = try await other.events()
        _ = try await stream.nextPatch()

        try await Self.announcing(harness).announce(text: "Look at this bark", photo: try Self.upload(Self.png))
        let patch = try await stream.nextPatch { @Sendable in $0.html.contains("Look at this bark") }
        let src = try #require(patch.html.range(of: #"<img class="toast-photo" src="/photos/[0-9a-f]{32}\.png""#, options: .regularExpression))
        let url = String(patch.html[src].dropFirst(#"<img class="toast-photo" src=""#.count).dropLast())

        let listed = try await other.get("/api/announcements").json(JSONValue.self)
        #expect(listed.elements.last?["text"]?.stringValue == "Look at this bark")
        #expect(listed.elements.last?["photo"]?.stringValue == url)

        let photo = try await other.get(url)
        #expect(photo.status == 200)
        #expect(photo.headers["Content-Type"] == "image/png")
        #expect(photo.headers["X-Content-Type-Options"] == "nosniff")
        #expect(photo.headers["Content-Disposition"] == "inline")
        #expect(photo.body == Self.png)
        stream.close()
        await harness.stop()
    }

    @Test("a type lie, a photo too large or of another type is refused by the form with the rule, and nothing is kept")
    func refusals() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        // Rib House's rules, in a directory of this test's own.
        let rules = harness.ribHouse.component.photos
        let photos = UploadStore(directory: NSTemporaryDirectory() + "ribhouse-photos-\(UUID().uuidString)", types: rules.types, maxBytes: rules.maxBytes)
        let announcing = Announcing(announcements: harness.ribHouse.component.sharedAnnouncements, photos: photos)
        let lies = [
            (try Self.upload(Array("<html><script>alert(1)</script></html>".utf8), name: "x.png"), "JPEG or PNG"),
            (try Self.upload([0xFF, 0xD8, 0xFF, 0xE0] + Self.png, name: "x.png"), "JPEG or PNG"),
            (try Self.upload(Array("GIF89a....".utf8), name: "x.gif", type: "image/gif"), "JPEG or PNG"),
            (try Self.upload(Self.png + [UInt8](repeating: 0, count: 2 << 20)), "larger than 2 MiB"),
        ]
        for (lie, rule) in lies {
            let error = await #expect(throws: FormError.self) { try await announcing.announce(text: "Look", photo: lie) }
            #expect(error?.message.contains(rule) == true && error?.field == "photo", "\(String(describing: error))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.directory).isEmpty)
        await harness.stop()
    }

    @Test("only ids the store makes are served")
    func onlyKeptIDsAreServed() async throws {
        let harness = try await RibHouseHarness.start(.inProcess, ticking: false)
        let client = harness.client()
        for path in ["/photos/..%2F..%2Fetc%2Fpasswd", "/photos/0123456789abcdef0123456789abcdef.png", "/photos/x"] {
            #expect(try await client.get(path).status == 404, "\(path)")
        }
        await harness.stop()
    }

    @Test("an announcement from the bus naming a photo that is not an id is refused")
    func busAnnouncementPhotoIsChecked() throws {
        let bad = Data(#"{"text":"hi","photo":"../../secret.png"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Announcement.self, from: bad) }
        let good = Data(#"{"text":"hi","photo":"0123456789abcdef0123456789abcdef.jpg"}"#.utf8)
        #expect(try JSONDecoder().decode(Announcement.self, from: good).photoURL == "/photos/0123456789abcdef0123456789abcdef.jpg")
    }
}
