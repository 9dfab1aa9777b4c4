/// Bounds for text a stranger sends (a name, a message): counted in
/// characters as people see them, and in the bytes and code points behind
/// them, so that "140 characters" can never be a megabyte.
///
/// A character (a grapheme cluster) may hold any number of combining marks;
/// one letter with thousands of accents is still one character. So a text
/// is checked in the order that costs least: its UTF-8 bytes, then its code
/// points (no control or direction-changing character), then its
/// characters, each of at most a few code points.
///
/// ```swift
/// static let name = TextLimit(maxCharacters: 40)
///
/// if let problem = Self.name.check(name) { throw FormError(problem.description, field: "name") }
/// ```
public struct TextLimit: Sendable, Equatable {
    /// The most characters (grapheme clusters).
    public var maxCharacters: Int
    /// The most UTF-8 bytes.
    public var maxBytes: Int
    /// The most code points in one character: enough for an emoji family or
    /// a flag, not for a letter buried in accents.
    public var maxScalarsPerCharacter: Int
    /// Whether line breaks and tabs may appear inside the text.
    public var allowsLineBreaks: Bool

    /// Bounds of `maxCharacters` characters and, unless given, 16 bytes per
    /// character; at most `maxScalarsPerCharacter` code points a character.
    public init(maxCharacters: Int, maxBytes: Int? = nil, maxScalarsPerCharacter: Int = 8, allowsLineBreaks: Bool = false) {
        self.maxCharacters = max(1, maxCharacters)
        self.maxBytes = max(1, maxBytes ?? maxCharacters * 16)
        self.maxScalarsPerCharacter = max(1, maxScalarsPerCharacter)
        self.allowsLineBreaks = allowsLineBreaks
    }

    /// What is wrong with a text, in a sentence a person can act on.
    public enum Violation: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing visible: empty, or only spaces, invisible characters or
        /// lone accents.
        case nothingVisible
        /// More characters than allowed.
        case tooManyCharacters(limit: Int)
        /// More bytes than allowed, or a character with too many code points.
        case tooLarge
        /// A control character, or one that changes the direction of text
        /// or hides as a tag or byte-order mark.
        case hiddenCharacter

        /// What to tell the person who typed it, in a few words.
        public var description: String {
            switch self {
            case .nothingVisible: "Type something visible."
            case .tooManyCharacters(let limit): "Keep it to \(limit) characters."
            case .tooLarge: "That text is too large."
            case .hiddenCharacter: "Control and direction-changing characters can't be used."
            }
        }
    }

    /// What is wrong with `text`, or `nil` when it is within bounds.
    public func check(_ text: String) -> Violation? {
        guard text.utf8.count <= maxBytes else { return .tooLarge }
        var visible = false
        for scalar in text.unicodeScalars {
            if Self.isHidden(scalar, allowingLineBreaks: allowsLineBreaks) { return .hiddenCharacter }
            if !visible, Self.isVisible(scalar) { visible = true }
        }
        var characters = 0
        for character in text {
            characters += 1
            if characters > maxCharacters { return .tooManyCharacters(limit: maxCharacters) }
            if character.unicodeScalars.count > maxScalarsPerCharacter { return .tooLarge }
        }
        return visible ? nil : .nothingVisible
    }

    /// Letters, digits, punctuation and symbols: what shows on its own.
    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        default:
            false
        }
    }

    /// Controls, direction marks and overrides, the byte-order mark, tag
    /// characters and line or paragraph separators.
    private static func isHidden(_ scalar: Unicode.Scalar, allowingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !allowingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029, 0xFEFF, 0xFFF9...0xFFFB: true
        case 0xE0000...0xE007F: true
        default: false
        }
    }
}
