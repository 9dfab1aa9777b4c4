/// Percent-decoding and `application/x-www-form-urlencoded` parsing, done on bytes
/// so that malformed escapes and invalid UTF-8 are caught instead of guessed at.
enum URLEncoding {
    /// Why a piece of text could not be decoded; becomes a 400.
    struct Malformed: Error {
        let reason: String
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusIsSpace`); throws on a bad escape or invalid UTF-8.
    static func decode<C: Collection>(_ bytes: C, plusIsSpace: Bool) throws(Malformed) -> String where C.Element == UInt8 {
        var needsWork = false
        for b in bytes where b == UInt8(ascii: "%") || (plusIsSpace && b == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        if !needsWork {
            guard let s = String(validating: bytes, as: UTF8.self) else { throw Malformed(reason: "invalid UTF-8") }
            return s
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                let h = bytes.index(after: i)
                guard h != bytes.endIndex else { throw Malformed(reason: "bad percent escape") }
                let l = bytes.index(after: h)
                guard l != bytes.endIndex, let hi = hex(bytes[h]), let lo = hex(bytes[l]) else {
                    throw Malformed(reason: "bad percent escape")
                }
                out.append(hi << 4 | lo)
                i = bytes.index(after: l)
                continue
            }
            out.append(plusIsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            i = bytes.index(after: i)
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw Malformed(reason: "invalid UTF-8") }
        return s
    }

    /// Decodes, falling back to the raw text when it is malformed (used for paths, where a 404 is the right answer later).
    static func decodeLenient(_ bytes: Substring.UTF8View) -> String {
        (try? decode(bytes, plusIsSpace: false)) ?? String(Substring(bytes))
    }

    /// Parses `a=1&b=x+y` into ordered pairs; a field without `=` gets an empty value.
    static func parseForm<C: Collection>(_ bytes: C) throws(Malformed) -> [(name: String, value: String)] where C.Element == UInt8, C.SubSequence: Collection<UInt8> {
        var result: [(name: String, value: String)] = []
        for part in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let eq = part.firstIndex(of: UInt8(ascii: "=")) {
                let name = try decode(part[part.startIndex..<eq], plusIsSpace: true)
                let value = try decode(part[part.index(after: eq)...], plusIsSpace: true)
                result.append((name: name, value: value))
            } else {
                result.append((name: try decode(part, plusIsSpace: true), value: ""))
            }
        }
        return result
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
