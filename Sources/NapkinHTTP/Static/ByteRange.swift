/// What a `Range` request header asks of a representation of `size` bytes.
///
/// Only what a static-file server needs: one `bytes` range or the whole file.
/// Multiple ranges would need a `multipart/byteranges` body, which RFC 9110
/// lets a server decline by ignoring the header, so they answer `.whole`.
enum ByteRangeRequest: Equatable, Sendable {
    /// No usable single byte range (absent, malformed, multiple ranges, not `bytes=`): send the whole file with 200.
    case whole
    /// One satisfiable range, inclusive bounds already clamped to the file: send 206.
    case partial(ClosedRange<Int>)
    /// A syntactically valid range that selects no byte of the file: send 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Parses `header` (the `Range` field value, or nil) for a representation of `size` bytes (RFC 9110 §14).
    ///
    /// Works on the field's bytes, so no Unicode rule can make a separator
    /// disappear, and reads numbers of any length without trapping: a number
    /// too big for `Int` only ever means "past the end of the file".
    static func parse(_ header: String?, size: Int) -> ByteRangeRequest {
        guard let header else { return .whole }
        let size = max(size, 0)
        var field = Substring(header).utf8[...]
        trimWhitespace(&field)
        guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { return .whole }
        var unit = field[..<equals]
        trimWhitespace(&unit)
        guard isBytesUnit(unit) else { return .whole }

        // `1#range-spec`: empty list elements are allowed and ignored (RFC 9110 §5.6.1).
        var specs = field[field.index(after: equals)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        for index in specs.indices { trimWhitespace(&specs[index]) }
        specs.removeAll { $0.isEmpty }
        guard specs.count == 1, let spec = specs.first else { return .whole }
        return resolve(spec, size: size)
    }

    /// One `range-spec`: `first-last`, `first-` or `-suffix`.
    private static func resolve(_ spec: Substring.UTF8View.SubSequence, size: Int) -> ByteRangeRequest {
        guard let dash = spec.firstIndex(of: UInt8(ascii: "-")) else { return .whole }
        let firstDigits = spec[..<dash]
        let lastDigits = spec[spec.index(after: dash)...]

        if firstDigits.isEmpty {
            guard let suffix = Number(lastDigits) else { return .whole }
            guard suffix.value > 0, size > 0 else { return .unsatisfiable }
            return .partial(max(0, size - suffix.value)...(size - 1))
        }
        guard let first = Number(firstDigits) else { return .whole }
        var last: Number?
        if !lastDigits.isEmpty {
            guard let parsed = Number(lastDigits) else { return .whole }
            guard !(parsed < first) else { return .whole }
            last = parsed
        }
        guard first.value < size else { return .unsatisfiable }
        return .partial(first.value...min(last?.value ?? Int.max, size - 1))
    }

    /// A decimal number of any length: its value saturated at `Int.max`, and its
    /// significant digits so that two huge numbers still compare exactly.
    private struct Number {
        let value: Int
        let digits: Substring.UTF8View.SubSequence

        init?(_ text: Substring.UTF8View.SubSequence) {
            guard !text.isEmpty, text.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            digits = text.drop { $0 == UInt8(ascii: "0") }
            var value = 0
            for digit in digits {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                if o1 || o2 { value = Int.max; break }
                value = sum
            }
            self.value = value
        }

        static func < (lhs: Number, rhs: Number) -> Bool {
            if lhs.digits.count != rhs.digits.count { return lhs.digits.count < rhs.digits.count }
            return lhs.digits.lexicographicallyPrecedes(rhs.digits)
        }
    }

    private static func isBytesUnit(_ unit: Substring.UTF8View.SubSequence) -> Bool {
        // ASCII letters only differ from their capitals by 0x20, and nothing else
        // folds onto "bytes" that way.
        unit.count == 5 && zip(unit, "bytes".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    private static func trimWhitespace(_ bytes: inout Substring.UTF8View.SubSequence) {
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
    }
}
