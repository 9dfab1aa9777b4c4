import Foundation
import NapkinWeb

/// A word from the pit boss ("Last call for burnt ends!"), sent to every
/// open browser once and never replayed.
struct Announcement: Sendable, Equatable, Codable {
    let text: String

    /// The longest announcement, in characters.
    static let limit = 140
    /// Its bounds in bytes and code points as well as characters.
    static let textLimit = TextLimit(maxCharacters: limit)

    /// Why an announcement was refused; the text goes back to the client.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    private enum CodingKeys: String, CodingKey {
        case text
    }

    /// Read back (from another process, over the bus) under the rules a
    /// posted one meets: anyone who reaches the bus could have sent it.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .text)
        do {
            try self.init(validating: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .text, in: container, debugDescription: error.description)
        }
    }

    /// An announcement of `text`, trimmed: 1–140 characters, something
    /// visible among them, within ``textLimit``.
    init(validating text: String) throws(Invalid) {
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
