import Foundation
import NapkinHTTP

/// Announcement photos: JPEG or PNG files of at most 2 MiB in one
/// directory, the most recent ``capacity`` of them; older ones are removed
/// as new ones come. A photo's name is a random id and an extension from
/// its sniffed type, so what is served is known from the name alone.
///
/// Processes that serve the same app must share the directory (one machine,
/// or a shared volume): a photo announced through one is fetched from any.
/// Each process trims the directory to ``capacity`` as it adds.
final class PhotoStore: Sendable {
    /// The largest photo, in bytes.
    static let maxBytes = 2 << 20
    /// The types a photo may be.
    static let types: [FileType] = [.jpeg, .png]

    let directory: String
    /// The most photos kept.
    let capacity: Int
    /// Serializes adding and trimming in this process.
    private let lock = NSLock()

    /// Why a photo was refused; the text goes back to the client.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(directory: String, capacity: Int = 64) {
        self.directory = directory
        self.capacity = capacity
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// The directory photos go to when the app is given none: one per
    /// machine, so that the processes of a local cluster share it.
    static var defaultDirectory: String { UploadLimits.defaultDirectory + "/ribhouse-photos" }

    /// Keeps `file` (moved out of the request's temporary files) and
    /// answers its id; refuses a file that is too large, not declared as
    /// JPEG or PNG, or whose content is not what it declared.
    func keep(_ file: UploadedFile) throws -> String {
        guard file.size <= Self.maxBytes else { throw Invalid(description: "The photo is larger than 2 MiB.") }
        let type: FileType
        do { type = try file.requireType(Self.types) } catch {
            throw Invalid(description: "The photo must be a JPEG or PNG image.")
        }
        let id = Self.randomName() + (type == .png ? ".png" : ".jpg")
        try lock.withLock {
            do { try file.move(to: directory + "/" + id) } catch {
                throw Invalid(description: "The photo could not be kept. Try again.")
            }
            trim()
        }
        return id
    }

    /// The path and media type of the photo `id`; nil for an id this store
    /// does not make, or a photo gone.
    func photo(_ id: String) -> (path: String, type: String)? {
        guard let type = Self.mediaType(of: id) else { return nil }
        let path = directory + "/" + id
        return FileManager.default.fileExists(atPath: path) ? (path, type) : nil
    }

    /// The media type named by a well-formed id's extension, or nil: an id
    /// is a token and `.jpg` or `.png`, nothing else (no path, no dots).
    static func mediaType(of id: String) -> String? {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32, parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        switch parts[1] {
        case "jpg": return FileType.jpeg.mediaType
        case "png": return FileType.png.mediaType
        default: return nil
        }
    }

    /// 128 random bits as 32 lowercase hex digits.
    private static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ -> String in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Removes the oldest photos beyond ``capacity``.
    private func trim() {
        let url = URL(fileURLWithPath: directory)
        guard
            let entries = try? FileManager.default.contentsOfDirectory(
                at: url, includingPropertiesForKeys: [.contentModificationDateKey])
        else { return }
        let photos = entries.filter { Self.mediaType(of: $0.lastPathComponent) != nil }
        guard photos.count > capacity else { return }
        let dated = photos.map { ($0, (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) }
        for (old, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(photos.count - capacity) {
            try? FileManager.default.removeItem(at: old)
        }
    }
}
