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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 32)
        bytes.append(0x22)
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]  // \"
            case 0x5C: bytes += [0x5C, 0x5C]  // \\
            case 0x0A: bytes += [0x5C, 0x6E]  // \n
            case 0x0D: bytes += [0x5C, 0x72]  // \r
            case 0x09: bytes += [0x5C, 0x74]  // \t
            case 0x3C, 0x3E, 0x26, 0x00..<0x20: escapeScalar(UInt32(byte), into: &bytes)
            case 0xE2:
                // U+2028 and U+2029 (E2 80 A8/A9) end lines in JavaScript.
                let second = utf8.next()
                let third = second == 0x80 ? utf8.next() : nil
                if let third, third == 0xA8 || third == 0xA9 {
                    escapeScalar(third == 0xA8 ? 0x2028 : 0x2029, into: &bytes)
                } else {
                    bytes.append(byte)
                    if let second { bytes.append(second) }
                    if let third { bytes.append(third) }
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func escapeScalar(_ value: UInt32, into bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes += [0x5C, 0x75]  // \u
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)])
        }
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
