/// A form found in an HTML page, read the way a browser would submit it.
public struct HTMLForm: Sendable {
    /// A submit button: its visible text and, when it has one, its name/value.
    public struct Button: Sendable {
        /// The visible label.
        public let text: String
        /// The `name` submitted with the form, if any.
        public let name: String?
        /// The `value` submitted with the form, if any.
        public let value: String?
    }

    /// Where the form posts.
    public let action: String
    /// The form's method, lowercased.
    public let method: String
    /// The `class` attribute.
    public let className: String?
    /// The successful controls' names and values, in document order.
    public let fields: [(name: String, value: String)]
    /// The submit buttons.
    public let buttons: [Button]

    /// The value of the field `name`.
    public func value(of name: String) -> String? {
        fields.last { $0.name == name }?.value
    }

    /// Every `<form>` in `html`.
    public static func parseAll(_ html: String) -> [HTMLForm] {
        var forms: [HTMLForm] = []
        var rest = html[...]
        while let start = rest.range(of: "<form"), let end = rest.range(of: "</form>", range: start.upperBound..<rest.endIndex) {
            forms.append(parse(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return forms
    }

    private static func parse(_ markup: Substring) -> HTMLForm {
        let tags = HTMLScanner.tags(in: markup)
        let formTag = tags.first { $0.name == "form" }
        var fields: [(String, String)] = []
        var buttons: [Button] = []
        // The select being read: its name, and its chosen option so far (the
        // first, until one is marked selected), posted when it ends.
        var select: (name: String, value: String?, marked: Bool)?
        for tag in tags {
            if tag.name == "option", let current = select {
                let value = tag.attributes["value"] ?? tag.content ?? ""
                if tag.attributes["selected"] != nil, !current.marked {
                    select = (current.name, value, true)
                } else if current.value == nil {
                    select = (current.name, value, false)
                }
                continue
            }
            if let current = select, let value = current.value { fields.append((current.name, value)) }
            select = nil
            switch tag.name {
            case "input":
                let type = tag.attributes["type"]?.lowercased() ?? "text"
                guard let name = tag.attributes["name"] else {
                    if type == "submit" { buttons.append(Button(text: tag.attributes["value"] ?? "Submit", name: nil, value: nil)) }
                    continue
                }
                switch type {
                case "submit":
                    buttons.append(Button(text: tag.attributes["value"] ?? "Submit", name: name, value: tag.attributes["value"]))
                case "checkbox", "radio":
                    if tag.attributes["checked"] != nil { fields.append((name, tag.attributes["value"] ?? "on")) }
                case "button", "reset", "file", "image":
                    continue
                default:
                    fields.append((name, tag.attributes["value"] ?? ""))
                }
            case "select":
                if let name = tag.attributes["name"] { select = (name, nil, false) }
            case "textarea":
                if let name = tag.attributes["name"] { fields.append((name, tag.content ?? "")) }
            case "button":
                let type = tag.attributes["type"]?.lowercased() ?? "submit"
                guard type == "submit" else { continue }
                buttons.append(Button(text: tag.content ?? "", name: tag.attributes["name"], value: tag.attributes["value"]))
            default:
                continue
            }
        }
        if let current = select, let value = current.value { fields.append((current.name, value)) }
        return HTMLForm(
            action: formTag?.attributes["action"] ?? "",
            method: formTag?.attributes["method"]?.lowercased() ?? "get",
            className: formTag?.attributes["class"],
            fields: fields,
            buttons: buttons)
    }
}
