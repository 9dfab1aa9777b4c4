/// A fragment of HTML that is safe to send: text interpolated into it is
/// escaped; only other `HTML` values, or strings explicitly marked raw, go in
/// as markup.
///
/// ```swift
/// let name = "<script>"
/// let page: HTML = "<p class=\"greeting\">Hello, \(name)</p>"
/// // <p class="greeting">Hello, &lt;script&gt;</p>
/// ```
///
/// Escaping covers `&`, `<`, `>`, `"` and `'`, so interpolation is safe in
/// text and in quoted attribute values alike.
public struct HTML: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup.
    public private(set) var rendered: String

    /// Markup taken as is. Use it only for markup you wrote or already escaped.
    public init(raw markup: String) {
        rendered = markup
    }

    /// Markup from a literal: the literal's text is trusted as markup.
    public init(stringLiteral value: String) {
        rendered = value
    }

    /// Markup from a literal with interpolations: the literal's text is
    /// markup, and what is interpolated is escaped unless it is `HTML` (see
    /// ``Interpolation``).
    public init(stringInterpolation: Interpolation) {
        rendered = stringInterpolation.rendered
    }

    /// Text, escaped.
    public init(text: String) {
        rendered = HTML.escape(text)
    }

    /// No markup at all.
    public static let empty = HTML(raw: "")

    /// The markup, as ``rendered``.
    public var description: String { rendered }

    /// Appends another fragment.
    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        HTML(raw: lhs.rendered + rhs.rendered)
    }

    /// Escapes text for HTML text and quoted attribute values.
    public static func escape(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Whether `text` holds `&`, `<`, `>`, `"` or `'`. Every string a page
    /// interpolates is scanned, most of them letters: one comparison passes
    /// a byte at or above `@`, where none of the five is.
    private static func needsEscaping(_ text: String) -> Bool {
        func special(_ byte: UInt8) -> Bool {
            byte < 0x40 && (byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27)
        }
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: special) }) { return found }
        return text.utf8.contains(where: special)
    }

    /// Builds `HTML` from a literal with interpolations.
    public struct Interpolation: StringInterpolationProtocol {
        var rendered = ""

        /// An empty interpolation, with room for about as much markup as
        /// the literal will produce.
        public init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// Literal parts are markup written by the programmer.
        public mutating func appendLiteral(_ literal: String) {
            rendered += literal
        }

        /// Text is escaped.
        public mutating func appendInterpolation(_ text: String) {
            rendered += HTML.escape(text)
        }

        /// Any other value is escaped as its description.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            rendered += HTML.escape(value.description)
        }

        /// Another fragment goes in as markup.
        public mutating func appendInterpolation(_ html: HTML) {
            rendered += html.rendered
        }

        /// Fragments go in as markup, one after another.
        public mutating func appendInterpolation(_ fragments: [HTML]) {
            for fragment in fragments { rendered += fragment.rendered }
        }

        /// Markup taken as is: `\(raw: trustedMarkup)`.
        public mutating func appendInterpolation(raw markup: String) {
            rendered += markup
        }

        /// An optional fragment; nothing when `nil`.
        public mutating func appendInterpolation(_ html: HTML?) {
            if let html { rendered += html.rendered }
        }
    }
}
