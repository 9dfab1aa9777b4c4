/// Why the last post of one of a view controller's actions was refused (a
/// ``FormError``), and what was posted: what a view needs to show the
/// message, mark the field and give back what the person typed.
///
/// Read it in ``WebViewController/body()`` with
/// ``WebViewController/problem(for:)``; the action's form already shows
/// ``message`` on its own, with the id ``id``.
///
/// ```swift
/// var invalid: HTML = ""
/// if let problem = problem(for: "order"), problem.field == "quantity" {
///     invalid = " aria-invalid=\"true\" aria-describedby=\"\(problem.id)\""
/// }
/// let typed = problem(for: "order")?.values["quantity"] ?? ""
/// ```
///
/// A later successful post of the same action clears it, and so does the
/// fragment leaving the page.
public struct FormProblem: Sendable, Equatable {
    /// What to tell the person (``FormError/message``).
    public let message: String
    /// The name of the field at fault, if one is (``FormError/field``).
    public let field: String?
    /// The form key of the form that was posted (see
    /// ``WebViewController/form(_:key:class:returnTo:content:)-(String,_,_,_,_)``), for
    /// actions with one form per item.
    public let key: String?
    /// The id of the message's element in the form: point a field's
    /// `aria-describedby` at it.
    public let id: String
    /// The posted fields but napkin's own (those named `_…`), in order.
    private let posted: [Field]

    private struct Field: Sendable, Equatable {
        let name: String
        let value: String
    }

    /// At most this many bytes of posted names and values are kept (each
    /// field counting 16 more), so a problem stays small however much was
    /// posted; fields past it are left out.
    static let keptBytes = 16 * 1024
    /// A posted form key longer than this is not kept (no form of the view
    /// has it).
    static let maxKeyBytes = 1024

    init(_ error: FormError, id: String, key: String?, fields: [(name: String, value: String)]) {
        message = error.message
        field = error.field
        self.key = key
        self.id = id
        var kept: [Field] = []
        var budget = Self.keptBytes
        for field in fields where !field.name.hasPrefix("_") {
            let cost = field.name.utf8.count + field.value.utf8.count + 16
            guard cost <= budget else { continue }
            budget -= cost
            kept.append(Field(name: field.name, value: field.value))
        }
        posted = kept
    }

    /// The posted value of each field (the last one, for a field posted
    /// more than once), to fill the form in again: `values["name"]`.
    public var values: [String: String] {
        var values: [String: String] = [:]
        for field in posted { values[field.name] = field.value }
        return values
    }

    /// Every posted value of the field `name`, in order (checkboxes sharing
    /// a name, a multiple select); empty when it was not posted.
    public func values(of name: String) -> [String] {
        posted.filter { $0.name == name }.map(\.value)
    }
}
