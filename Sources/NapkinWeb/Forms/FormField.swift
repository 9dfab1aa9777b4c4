/// A form control a field helper renders
/// (``WebViewController/field(_:_:label:of:key:value:checked:id:class:attributes:)-(_,_,_,String,_,_,_,_,_,_)``):
/// its kind, and for a select its options.
public enum FormField: Sendable, Equatable {
    /// `<input type="text">`.
    case text
    /// `<input type="email">`.
    case email
    /// `<input type="number">`.
    case number
    /// `<textarea>`.
    case textarea
    /// `<select>` with these options.
    case select([Option])
    /// `<input type="checkbox">`, posting `on` when checked.
    case checkbox
    /// `<input type="file">`: no value is ever given back (browsers forbid it).
    case file

    /// One option of a select: the value posted and the label shown.
    public struct Option: Sendable, Equatable {
        /// What the form posts when the option is chosen.
        public var value: String
        /// What the person reads.
        public var label: String

        /// An option posting `value`, shown as `label` (the value, unless given).
        public init(_ value: String, label: String? = nil) {
            self.value = value
            self.label = label ?? value
        }
    }

    /// What a checkbox posts when it is checked.
    static let checkedValue = "on"

    /// The label, the control and the message element of one field.
    ///
    /// `value` is what the control shows (for a checkbox, whether it is
    /// checked is `checked`); `message`, when there is one, marks the
    /// control `aria-invalid` and points its `aria-describedby` at the
    /// message element, which is always rendered (hidden when empty) so
    /// napkin's client can fill it in while the person types.
    static func markup(
        _ kind: FormField, name: String, label: String, id: String, value: String, checked: Bool, message: String?,
        className: String?, attributes: HTML
    ) -> HTML {
        let messageID = id + "-message"
        let classAttribute: HTML? = className.map { " class=\"\($0)\"" }
        let invalid: HTML? = message.map { _ in " aria-invalid=\"true\" aria-describedby=\"\(messageID)\"" }
        let extra: HTML? = attributes.rendered.isEmpty ? nil : " \(attributes)"
        let common: HTML = " id=\"\(id)\" name=\"\(name)\"\(classAttribute)\(invalid)\(extra)"
        let labelElement: HTML = "<label for=\"\(id)\">\(label)</label>"
        let control: HTML
        switch kind {
        case .text, .email, .number:
            let type = kind == .email ? "email" : kind == .number ? "number" : "text"
            control = "\(labelElement)<input type=\"\(raw: type)\"\(common) value=\"\(value)\">"
        case .textarea:
            // The parser drops one newline right after <textarea>: a value
            // that starts with one keeps it.
            let lead: HTML = value.first == "\n" || value.first == "\r\n" ? "\n" : ""
            control = "\(labelElement)<textarea\(common)>\(lead)\(value)</textarea>"
        case .select(let options):
            let items = options.map { option -> HTML in
                let selected: HTML? = option.value == value ? " selected" : nil
                return "<option value=\"\(option.value)\"\(selected)>\(option.label)</option>"
            }
            control = "\(labelElement)<select\(common)>\(items)</select>"
        case .checkbox:
            let isChecked: HTML? = checked ? " checked" : nil
            control = "<input type=\"checkbox\"\(common) value=\"\(raw: checkedValue)\"\(isChecked)>\(labelElement)"
        case .file:
            control = "\(labelElement)<input type=\"file\"\(common)>"
        }
        let hidden: HTML? = message == nil ? " hidden" : nil
        return """
            \(control)<p class="napkin-field-message" id="\(messageID)" \(raw: WireProtocol.Attribute.message)="\(name)" \
            aria-live="polite"\(hidden)>\(message ?? "")</p>
            """
    }
}
