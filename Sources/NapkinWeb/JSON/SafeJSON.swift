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

    /// How many bytes ``writeQuoted(_:to:)`` writes for `source`: a buffer
    /// of the exact size, where the largest case (six bytes out for each
    /// byte in) made a page-sized fragment ask for a large block every time.
    static func quotedCount(_ source: UnsafeBufferPointer<UInt8>) -> Int {
        var counter = ByteCounter()
        quote(source, to: &counter)
        return counter.count
    }

    /// Writes `source` as a JSON string literal (quotes included) to
    /// `writer`, by hand: patches are encoded on the hot path of every live
    /// update.
    static func writeQuoted(_ source: UnsafeBufferPointer<UInt8>, to writer: inout ByteWriter) {
        quote(source, to: &writer)
    }

    /// Whether each byte goes into a quoted string as it is: not a control
    /// character, `"`, `\`, `<`, `>`, `&`, nor 0xE2 (which may start
    /// U+2028 or U+2029).
    private nonisolated(unsafe) static let plainBytes: UnsafePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for byte in 0..<256 {
            table[byte] = byte >= 0x20 && ![0x22, 0x5C, 0x3C, 0x3E, 0x26, 0xE2].contains(byte)
        }
        return UnsafePointer(table)
    }()

    /// The one quoting routine, for counting and for writing alike.
    @inline(__always)
    private static func quote<Sink: ByteSink>(_ source: UnsafeBufferPointer<UInt8>, to sink: inout Sink) {
        @inline(__always) func scalar(_ value: UInt32) {
            sink.put(0x5C)
            sink.put(0x75)  // \u
            for shift in stride(from: 12, through: 0, by: -4) {
                let digit = UInt8((value >> UInt32(shift)) & 0xF)
                sink.put(digit < 10 ? 0x30 + digit : 0x57 + digit)
            }
        }
        let plain = plainBytes
        sink.put(0x22)
        var i = 0
        let count = source.count
        while i < count {
            let byte = source[i]
            i += 1
            // Most bytes of a fragment are copied as they are: one lookup.
            if plain[Int(byte)] {
                sink.put(byte)
                continue
            }
            switch byte {
            case 0x22: sink.put(0x5C); sink.put(0x22)  // \"
            case 0x5C: sink.put(0x5C); sink.put(0x5C)  // \\
            case 0x0A: sink.put(0x5C); sink.put(0x6E)  // \n
            case 0x0D: sink.put(0x5C); sink.put(0x72)  // \r
            case 0x09: sink.put(0x5C); sink.put(0x74)  // \t
            case 0x3C, 0x3E, 0x26, 0x00..<0x20: scalar(UInt32(byte))
            case 0xE2:
                // U+2028 and U+2029 (E2 80 A8/A9) end lines in JavaScript.
                if i + 1 < count, source[i] == 0x80, source[i + 1] == 0xA8 || source[i + 1] == 0xA9 {
                    scalar(source[i + 1] == 0xA8 ? 0x2028 : 0x2029)
                    i += 2
                } else {
                    sink.put(byte)
                }
            default: sink.put(byte)
            }
        }
        sink.put(0x22)
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
