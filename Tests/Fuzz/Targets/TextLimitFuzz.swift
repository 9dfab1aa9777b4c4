// fuzz-max-len: 2048
@testable import NapkinWeb

/// Text a stranger types (names, announcements), in bytes: `TextLimit` never
/// traps, and what it accepts is within every bound it states, counted
/// independently here. The first byte picks the bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard let first = bytes.first else { return 0 }
    let limit = TextLimit(
        maxCharacters: Int(first & 0x3F) + 1, maxBytes: first & 0x40 == 0 ? nil : Int(first & 0x3F) * 3 + 1,
        maxScalarsPerCharacter: Int(first >> 6) + 1, allowsLineBreaks: first & 0x80 != 0)
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    guard limit.check(text) == nil else { return 0 }
    require(text.utf8.count <= limit.maxBytes, "\(show(text)): \(text.utf8.count) bytes accepted, limit \(limit.maxBytes)")
    require(text.count <= limit.maxCharacters, "\(show(text)): \(text.count) characters accepted, limit \(limit.maxCharacters)")
    for character in text {
        require(character.unicodeScalars.count <= limit.maxScalarsPerCharacter, "\(show(text)): a character of too many code points accepted")
    }
    for scalar in text.unicodeScalars {
        let value = scalar.value
        let lineBreak = value == 0x0A || value == 0x09
        require(!(value < 0x20 || (0x7F...0x9F).contains(value)) || (lineBreak && limit.allowsLineBreaks),
                "\(show(text)): control U+\(String(value, radix: 16)) accepted")
        require(![0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0xFEFF].contains(value) && !(0x202A...0x202E).contains(value)
                && !(0x2066...0x2069).contains(value) && !(0xFFF9...0xFFFB).contains(value) && !(0xE0000...0xE007F).contains(value),
                "\(show(text)): hidden U+\(String(value, radix: 16)) accepted")
    }
    require(text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.generalCategory.isVisibleKind },
            "\(show(text)): accepted with nothing visible")
    return 0
}

extension Unicode.GeneralCategory {
    /// Letters, numbers, punctuation and symbols.
    fileprivate var isVisibleKind: Bool {
        switch self {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber, .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol,
            .otherSymbol:
            true
        default:
            false
        }
    }
}
