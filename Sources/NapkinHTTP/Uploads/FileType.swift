/// A kind of file an action accepts, known by its media type and by its
/// first bytes (its magic number).
public struct FileType: Sendable, Hashable {
    /// The media type, lowercased: `image/png`.
    public let mediaType: String
    /// What the file's first bytes must be, at the given offsets.
    let signatures: [[(offset: Int, bytes: [UInt8])]]

    /// A type recognized by any of `signatures`, each a list of byte runs at
    /// offsets that must all match.
    public init(mediaType: String, signatures: [[(offset: Int, bytes: [UInt8])]]) {
        self.mediaType = mediaType.lowercased()
        self.signatures = signatures
    }

    /// Whether `leading`, a file's first bytes, have this type's magic number.
    public func matches(_ leading: [UInt8]) -> Bool {
        signatures.contains { runs in
            runs.allSatisfy { run in
                run.offset + run.bytes.count <= leading.count
                    && leading[run.offset..<run.offset + run.bytes.count].elementsEqual(run.bytes)
            }
        }
    }

    /// The most leading bytes any signature needs.
    static let sniffedBytes = 16

    /// JPEG: `FF D8 FF`.
    public static let jpeg = FileType(mediaType: "image/jpeg", signatures: [[(0, [0xFF, 0xD8, 0xFF])]])
    /// PNG: its eight-byte signature.
    public static let png = FileType(mediaType: "image/png", signatures: [[(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])]])
    /// GIF: `GIF87a` or `GIF89a`.
    public static let gif = FileType(mediaType: "image/gif", signatures: [[(0, Array("GIF87a".utf8))], [(0, Array("GIF89a".utf8))]])
    /// WebP: a RIFF container of `WEBP`.
    public static let webp = FileType(mediaType: "image/webp", signatures: [[(0, Array("RIFF".utf8)), (8, Array("WEBP".utf8))]])
    /// PDF: `%PDF-`.
    public static let pdf = FileType(mediaType: "application/pdf", signatures: [[(0, Array("%PDF-".utf8))]])

    /// Types are equal when their media types are.
    public static func == (a: FileType, b: FileType) -> Bool { a.mediaType == b.mediaType }

    /// Hashes the media type.
    public func hash(into hasher: inout Hasher) { hasher.combine(mediaType) }
}
