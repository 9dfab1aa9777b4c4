import Foundation

/// A word from the pit boss ("Last call for burnt ends!"), sent to every
/// open browser once and never replayed.
struct Announcement: Sendable, Equatable, Codable {
    let text: String

    /// The longest announcement, in characters.
    static let limit = 140

    /// Why an announcement was refused; the text goes back to the client.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// An announcement of `text`, trimmed; 1–140 characters.
    init(validating text: String) throws(Invalid) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Invalid(description: "The announcement is empty.") }
        guard trimmed.count <= Self.limit else {
            throw Invalid(description: "The announcement is longer than \(Self.limit) characters.")
        }
        self.text = trimmed
    }
}
