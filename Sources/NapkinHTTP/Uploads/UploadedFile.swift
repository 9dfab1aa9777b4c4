#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file that came with a `multipart/form-data` post, already on disk in a
/// temporary file that belongs to the request: napkin removes it when the
/// request ends, however it ends. Keep it with ``move(to:)`` before then.
///
/// A form field of this type (or `UploadedFile?`, or `[UploadedFile]`)
/// decodes from a file part of the same name; it decodes from nothing else,
/// so a JSON body or a text field can never name a path on the server.
public struct UploadedFile: Sendable, Hashable, Decodable {
    /// The file's name as the client sent it, made safe to show and to use
    /// as the last component of a path: only what follows the last `/` or
    /// `\`, without control characters, at most 255 bytes; `"."` and `".."`
    /// become empty.
    public let fileName: String
    /// The media type the client declared, lowercased. A client may declare
    /// anything: check it against the content with ``requireType(_:)``.
    public let declaredType: String
    /// Bytes of content.
    public let size: Int
    /// Where the content is, on this server's disk.
    public let path: String
    /// The file's first bytes, for ``requireType(_:)``.
    let leadingBytes: [UInt8]

    init(fileName: String, declaredType: String, size: Int, path: String, leadingBytes: [UInt8]) {
        self.fileName = Self.sanitized(fileName)
        self.declaredType = declaredType
        self.size = size
        self.path = path
        self.leadingBytes = leadingBytes
    }

    /// Decodes only inside a form decoded from a multipart post.
    public init(from decoder: any Decoder) throws {
        guard let field = decoder as? FormFieldValueDecoder, let file = field.files.last else {
            throw DecodingError.typeMismatch(
                UploadedFile.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a file"))
        }
        self = file
    }

    /// The type among `accepted` that the client declared and that the
    /// content's first bytes confirm; throws `415` with a short reason when
    /// the declared type is not accepted or the content is not of that type.
    @discardableResult
    public func requireType(_ accepted: [FileType]) throws -> FileType {
        guard let type = accepted.first(where: { $0.mediaType == declaredType }) else {
            let names = accepted.map(\.mediaType).joined(separator: ", ")
            throw HTTPError(.unsupportedMediaType, "The file must be one of: \(names).")
        }
        guard type.matches(leadingBytes) else {
            throw HTTPError(.unsupportedMediaType, "The file's content is not \(type.mediaType), as it was declared.")
        }
        return type
    }

    /// Moves the content to `destination` (a path on this server), so that
    /// it outlives the request; a move across file systems copies. Throws
    /// when neither works.
    public func move(to destination: String) throws {
        if rename(path, destination) == 0 { return }
        guard errno == EXDEV else { throw HTTPError(.internalServerError, "Could not keep the upload.") }
        do { try FileManager.default.moveItem(atPath: path, toPath: destination) } catch {
            throw HTTPError(.internalServerError, "Could not keep the upload.")
        }
    }

    /// `name` made safe to show and to use as one path component.
    static func sanitized(_ name: String) -> String {
        let last = name.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? ""
        var kept = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        while kept.utf8.count > 255 { kept.removeLast() }
        return kept == "." || kept == ".." ? "" : kept
    }
}
