import NapkinWeb

/// Why a login was refused; its description is shown under the name field.
enum LoginError: Error, Equatable, CustomStringConvertible, FormErrorConvertible {
    case emptyName
    case nameTooLong(limit: Int)
    case invisibleCharacters

    var description: String {
        switch self {
        case .emptyName: "Tell us your name first — even a nickname will do."
        case .nameTooLong(let limit): "That name is a mouthful. Keep it to \(limit) characters."
        case .invisibleCharacters: "Names can't contain control or direction-changing characters."
        }
    }

    var formError: FormError { FormError(description, field: "name") }

    /// The longest name we chalk up, in visible characters.
    static let nameLimit = 40

    /// The name's bounds in bytes and code points as well as characters.
    static let textLimit = TextLimit(maxCharacters: nameLimit)

    /// The name as it will be shown: trimmed, 1–40 characters with a
    /// visible one among them, within ``textLimit``. Validation lives with
    /// the service (as it would on a real backend), so every way into
    /// `login(name:)` gets the same rules.
    static func validate(name raw: String) throws(LoginError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        switch textLimit.check(name) {
        case nil: return name
        case .nothingVisible: throw .emptyName
        case .tooManyCharacters, .tooLarge: throw .nameTooLong(limit: nameLimit)
        case .hiddenCharacter: throw .invisibleCharacters
        }
    }
}
