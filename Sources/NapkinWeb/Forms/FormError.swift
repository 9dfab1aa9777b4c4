/// A form that was posted but cannot be taken: thrown by an action's
/// handler, or by anything it awaits (usually the interactor, through the
/// listener call), to tell the person what to fix.
///
/// ```swift
/// // In the interactor, which the action's handler calls:
/// func didSubmit(_ order: OrderForm) async throws {
///     guard order.quantity > 0 else { throw FormError("Order at least one.", field: "quantity") }
///     await kitchen.place(order)
/// }
/// ```
///
/// napkin keeps the problem on the view controller the form posted to (see
/// ``WebViewController/problem(for:)``), re-renders its fragment — whose
/// ``WebViewController/form(_:key:class:returnTo:content:)-(String,_,_,_,_)`` shows the
/// message at the top of the form — and answers napkin's client
/// `422 Unprocessable Entity` with the fragment's HTML, or a browser
/// without JavaScript `303` back to the page, which shows the message.
///
/// Posts whose fields do not decode into the action's input become a
/// `FormError` too, with a short message naming the field ("Name is
/// required.", "Quantity must be a whole number."). An input's own
/// `init(from:)` may throw one to refuse a value it reads.
///
/// An app's own error type can refuse a form too, by converting to a
/// `FormError` (``FormErrorConvertible``).
///
/// The message is shown as text (escaped), never as markup.
public struct FormError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What to tell the person, in a sentence.
    public var message: String
    /// The name of the form field at fault, if one is.
    public var field: String?

    /// A problem with a posted form: `message` is shown to the person;
    /// `field` names the field at fault, if one is.
    public init(_ message: String, field: String? = nil) {
        self.message = message
        self.field = field
    }

    /// The message.
    public var description: String { message }
}

extension FormError {
    /// The problem with a form whose fields did not decode, in words for
    /// the person who filled it in. It names the field by its coding key
    /// (`firstName` as "First name") and never repeats the decoder's own
    /// text, which names Swift types. `fields` are the posted fields: an
    /// empty number is "required", not "not a number".
    init(decoding error: DecodingError, fields: [(name: String, value: String)]) {
        let path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context): path = context.codingPath
        @unknown default: path = []
        }
        guard let field = path.first?.stringValue else {
            self.init("This form could not be read. Reload the page and try again.")
            return
        }
        let label = Self.label(field)
        let posted = fields.last { $0.name == field }?.value ?? ""
        let empty = posted.allSatisfy { $0 == " " || $0 == "\t" }
        switch error {
        case .keyNotFound, .valueNotFound:
            self.init("\(label) is required.", field: field)
        case .typeMismatch(let type, _) where type is any FixedWidthInteger.Type:
            self.init(empty ? "\(label) is required." : "\(label) must be a whole number.", field: field)
        case .typeMismatch(let type, _) where type is any BinaryFloatingPoint.Type:
            self.init(empty ? "\(label) is required." : "\(label) must be a number.", field: field)
        case .typeMismatch(let type, _) where type is Bool.Type:
            self.init("\(label) must be yes or no.", field: field)
        default:
            self.init(empty ? "\(label) is required." : "\(label) is not valid.", field: field)
        }
    }

    /// A field name as words: `name` → "Name", `firstName` and
    /// `first_name` → "First name".
    static func label(_ field: String) -> String {
        var words = ""
        var previous: Character?
        for character in field {
            if character == "_" || character == "-" {
                if !words.isEmpty, words.last != " " { words.append(" ") }
            } else {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber, words.last != " " {
                    words.append(" ")
                }
                words.append(contentsOf: character.lowercased())
            }
            previous = character
        }
        while words.last == " " { words.removeLast() }
        guard let first = words.first else { return "This field" }
        return first.uppercased() + words.dropFirst()
    }
}
