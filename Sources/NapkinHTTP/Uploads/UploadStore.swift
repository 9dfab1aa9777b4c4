import Foundation
@_spi(Napkin) import NapkinSupport

/// Uploaded files kept to be served back, such as photos or avatars: each
/// checked against the types it may be, named by a random id and the
/// extension of its type, in one directory that keeps the newest
/// ``capacity`` files.
///
/// A kept file's name says everything about it: the id is 32 lowercase hex
/// digits and the extension names its sniffed type, so serving it needs no
/// database, and nothing the uploader chose (its name, its declared type)
/// reaches a path or a header. Processes that serve the same app share the
/// directory (one machine, or a shared volume); each trims it as it adds.
///
/// ```swift
/// let photos = UploadStore(directory: "/var/lib/app/photos", types: ["jpg": .jpeg, "png": .png], maxBytes: 2 << 20)
/// let id = try photos.keep(form.photo)        // in a form's action
/// photos.serve(at: "/photos", on: &router)    // GET /photos/<id>
/// ```
public final class UploadStore: Sendable {
    /// Where the files are.
    public let directory: String
    /// The types a file may be, by the extension its name gets.
    public let types: [String: FileType]
    /// The largest file, in bytes.
    public let maxBytes: Int
    /// The most files kept: adding one past it removes the oldest.
    public let capacity: Int
    /// Serializes adding and trimming in this process.
    private let adding = Locked(())

    /// Why a file was not kept. Its description is a sentence for the
    /// person who sent the file; an app may word its own.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Larger than ``UploadStore/maxBytes``.
        case tooLarge(maxBytes: Int)
        /// Not declared as one of the store's types, or its content is not
        /// what it was declared as.
        case notAccepted
        /// It could not be moved into the directory.
        case notKept

        /// The refusal in a sentence: "The file is larger than 2 MiB."
        public var description: String {
            switch self {
            case .tooLarge(let maxBytes):
                maxBytes % (1 << 20) == 0 ? "The file is larger than \(maxBytes >> 20) MiB." : "The file is larger than \(maxBytes) bytes."
            case .notAccepted: "The file is not of a type accepted here."
            case .notKept: "The file could not be kept. Try again."
            }
        }
    }

    /// A store in `directory` (made if missing) of files of `types` (by
    /// the extension their names get: `["jpg": .jpeg]`) of at most
    /// `maxBytes` each, keeping the newest `capacity`.
    public init(directory: String, types: [String: FileType], maxBytes: Int, capacity: Int = 64) {
        precondition(types.keys.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(Self.isLowerAlphanumeric) }, "an extension is lowercase letters and digits")
        self.directory = directory
        self.types = types
        self.maxBytes = maxBytes
        self.capacity = capacity
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Keeps `file`, moving it out of the request's temporary files, and
    /// answers its id; refuses a file that is too large, not declared as one
    /// of ``types``, or whose content is not what it declared.
    public func keep(_ file: UploadedFile) throws(Refusal) -> String {
        guard file.size <= maxBytes else { throw .tooLarge(maxBytes: maxBytes) }
        guard let type = try? file.requireType(Array(types.values)),
            let fileExtension = types.first(where: { $0.value == type })?.key
        else { throw .notAccepted }
        let id = Self.randomName() + "." + fileExtension
        let kept = adding.withLock { _ in
            guard (try? file.move(to: path(of: id))) != nil else { return false }
            trim()
            return true
        }
        guard kept else { throw .notKept }
        return id
    }

    /// The type the id `id` names, or `nil` for an id this store does not
    /// make: one not well formed, or of an extension not in ``types``.
    public func type(of id: String) -> FileType? {
        guard Self.isWellFormedID(id), let dot = id.firstIndex(of: ".") else { return nil }
        return types[String(id[id.index(after: dot)...])]
    }

    /// Where the file `id` is kept (whether or not it is there).
    func path(of id: String) -> String {
        directory + "/" + id
    }

    /// Whether `id` has the shape of a kept file's id, whatever store made
    /// it: 32 lowercase hex digits, a dot and a lowercase alphanumeric
    /// extension, nothing else (no path, no other dots). For ids that come
    /// from elsewhere, such as another process's message.
    public static func isWellFormedID(_ id: String) -> Bool {
        let parts = id.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 32 && parts[0].allSatisfy(isLowerHex)
            && !parts[1].isEmpty && parts[1].allSatisfy(isLowerAlphanumeric)
    }

    /// 128 random bits as 32 lowercase hex digits.
    private static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ -> String in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) }

    /// Removes the oldest files beyond ``capacity``.
    private func trim() {
        let url = URL(fileURLWithPath: directory)
        guard let entries = try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.contentModificationDateKey])
        else { return }
        let kept = entries.filter { type(of: $0.lastPathComponent) != nil }
        guard kept.count > capacity else { return }
        let dated = kept.map { ($0, (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) }
        for (old, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(kept.count - capacity) {
            try? FileManager.default.removeItem(at: old)
        }
    }
}
