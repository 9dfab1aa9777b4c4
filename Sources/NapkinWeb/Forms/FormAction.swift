/// An action of a view controller, declared once as a value: its name, the
/// type its form's fields decode into, and whether napkin's client checks
/// the form while the person types.
///
/// ```swift
/// extension FormAction where Input == OrderForm {
///     static let order = FormAction("order", validatesWhileTyping: true) { form in
///         guard (1...12).contains(form.quantity) else { throw FormError("Order between 1 and 12.", field: "quantity") }
///     }
/// }
///
/// action(.order) { form in try await listener.didOrder(form) }
/// // …
/// form(.order, content: "\(field("quantity", .number, label: "How many", of: .order))<button>Order</button>")
/// ```
///
/// ``WebViewController/action(_:_:)-(FormAction<Input>,_)`` and
/// ``WebViewController/form(_:key:class:returnTo:multipart:content:)-(FormAction<Input>,_,_,_,_,_)``
/// both take the value, so a misspelt action does not compile.
///
/// `validate` is the app's own check of a decoded form: it runs before the
/// handler on every post, and alone on a validation pass while the person
/// types, which never calls the handler. It must have no side effects.
public struct FormAction<Input: Decodable>: Sendable {
    /// The action's name, as its forms post it (``WireProtocol/Field/action``).
    public let name: String
    /// Whether napkin's client posts the form for a validation pass as the
    /// person types (after ``debounceMilliseconds`` of quiet), showing the
    /// messages without sending the form.
    public var validatesWhileTyping: Bool
    /// How long napkin's client waits after the last keystroke before it
    /// asks for a validation pass.
    public var debounceMilliseconds: Int
    /// The app's check of a decoded form: throws a ``FormError`` to refuse it.
    let validate: (@Sendable (Input) throws -> Void)?

    /// The action `name`, whose form fields decode into `Input` and are
    /// checked by `validate` (if given) before its handler runs.
    public init(
        _ name: String,
        as input: Input.Type = Input.self,
        validatesWhileTyping: Bool = false,
        debounceMilliseconds: Int = 300,
        validate: (@Sendable (Input) throws -> Void)? = nil
    ) {
        self.name = name
        self.validatesWhileTyping = validatesWhileTyping
        self.debounceMilliseconds = min(max(debounceMilliseconds, 0), 10_000)
        self.validate = validate
    }
}

/// The input of an action whose form has no fields of its own (a Logout
/// button): `FormAction<NoFields>("logout")`.
public struct NoFields: Decodable, Sendable, Equatable {
    /// No fields.
    public init() {}

    /// Reads nothing: whatever was posted.
    public init(from decoder: any Decoder) throws {}
}
