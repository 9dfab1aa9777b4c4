import Foundation
import NapkinWeb

/// A word from the pit boss ("Last call for burnt ends!"), sent to every
/// open browser once and never replayed.
struct Announcement: Sendable, Equatable, Codable {
    let text: String
    /// The id of its photo among the app's photos, if it has one.
    let photo: String?

    /// Where its photo is served, if it has one.
    var photoURL: String? { photo.map { "/photos/" + $0 } }

    /// The longest announcement, in characters.
    static let limit = 140
    /// Its bounds in bytes and code points as well as characters.
    static let textLimit = TextLimit(maxCharacters: limit)

    /// Why an announcement was refused; the text goes back to the client.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    private enum CodingKeys: String, CodingKey {
        case text, photo
    }

    /// Read back (from another process, over the bus) under the rules a
    /// posted one meets: anyone who reaches the bus could have sent it.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .text)
        let photo = try container.decodeIfPresent(String.self, forKey: .photo)
        if let photo, !UploadStore.isWellFormedID(photo) {
            throw DecodingError.dataCorruptedError(forKey: .photo, in: container, debugDescription: "not a photo id")
        }
        do {
            try self.init(validating: text, photo: photo)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .text, in: container, debugDescription: error.description)
        }
    }

    /// An announcement of `text`, trimmed: 1–140 characters, something
    /// visible among them, within ``textLimit``; with the photo `photo`
    /// (an id of the app's photos), if any.
    init(validating text: String, photo: String? = nil) throws(Invalid) {
        self.photo = photo
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch Self.textLimit.check(trimmed) {
        case nil: self.text = trimmed
        case .nothingVisible: throw Invalid(description: "The announcement is empty.")
        case .tooManyCharacters, .tooLarge:
            throw Invalid(description: "The announcement is longer than \(Self.limit) characters.")
        case .hiddenCharacter: throw Invalid(description: "Announcements can't contain control characters.")
        }
    }
}
