/// The labels of one metric series, in the order they were given (which
/// is the order they are written in).
///
/// Keep label values bounded: a route *pattern*, a status class, a reason
/// from a short list. A value taken from a request (a raw path, a user id)
/// makes a new series per value and lets a client grow the registry without
/// bound.
///
/// ```swift
/// let notFound = registry.counter("napkin_http_requests_total", help: "…", labels: ["route": "/pit", "status": "4xx"])
/// ```
public struct MetricLabels: Hashable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One label: a name (`[a-zA-Z_][a-zA-Z0-9_]*`) and any value.
    public struct Label: Hashable, Sendable {
        /// The label's name.
        public let name: String
        /// The label's value, escaped when written.
        public let value: String
    }

    /// The labels, in order.
    public let labels: [Label]

    /// No labels.
    public static let none = MetricLabels([])

    /// Labels from name-value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        for (name, _) in pairs {
            precondition(MetricLabels.isValidName(name, colons: false) && !name.hasPrefix("__"), "not a label name: \(name)")
        }
        labels = pairs.map { Label(name: $0.0, value: $0.1) }
    }

    /// Labels from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of the label `name`, if there is one.
    public subscript(name: String) -> String? {
        labels.first { $0.name == name }?.value
    }

    /// These labels with `name` set to `value` at the end (the `le` of a histogram bucket).
    func adding(_ name: String, _ value: String) -> MetricLabels {
        MetricLabels(labels.map { ($0.name, $0.value) } + [(name, value)])
    }

    /// `{name="value",…}` as the text format writes it, or `""` for none.
    public var description: String {
        guard !labels.isEmpty else { return "" }
        var text = "{"
        for (index, label) in labels.enumerated() {
            if index > 0 { text += "," }
            text += label.name
            text += "=\""
            text += MetricLabels.escape(label.value)
            text += "\""
        }
        return text + "}"
    }

    /// A label value as the text format needs it: `\`, `"` and newline escaped.
    static func escape(_ value: String) -> String {
        value.escaping(["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
    }

    /// Whether `name` is a metric name (`colons`) or label name in the text format.
    static func isValidName(_ name: String, colons: Bool) -> Bool {
        guard let first = name.utf8.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || (colons && byte == 0x3A)
        }
        return isLetter(first) && name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
