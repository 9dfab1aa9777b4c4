import Foundation

/// JSON that is also safe to embed in HTML: `<`, `>` and `&` are written as
/// `\u003c`, `\u003e` and `\u0026`, so text a user typed can never close a
/// tag or start one, wherever the JSON ends up.
enum SafeJSON {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return escape(String(decoding: data, as: UTF8.self))
    }

    static func data(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return Array(escape(text).utf8)
    }

    /// `text` as a JSON string literal, written by hand: patches are encoded
    /// on the hot path of every live update.
    static func quote(_ text: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "<": quoted += "\\u003c"
            case ">": quoted += "\\u003e"
            case "&": quoted += "\\u0026"
            case "\u{2028}": quoted += "\\u2028"
            case "\u{2029}": quoted += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    /// The three characters only ever occur inside JSON strings, where the
    /// `\u` forms mean the same.
    static func escape(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 }) else { return json }
        return json
            .replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}
