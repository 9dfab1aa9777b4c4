/// Byte-level helpers for the ASCII parts of header fields: names, tokens,
/// media types and cookie names are compared and cut on their bytes, without
/// allocating lowercased copies or going through `Character`s.
enum ASCIIBytes {
    /// Whether `a` and `b` hold the same bytes, ASCII letters compared without case.
    static func equalIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] {
            if lowercased(a[i]) != lowercased(b[i]) { return false }
        }
        return true
    }

    /// `byte` with an ASCII capital letter lowercased.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }

    /// `range` of `bytes` without leading and trailing spaces and tabs.
    static func trimmingSpaces(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The ranges of `bytes` between `separator` bytes, each trimmed of
    /// spaces and tabs, in order, handed to `body` until it returns `false`.
    static func forEachPart(
        of bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8, _ body: (Range<Int>) -> Bool
    ) {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != separator { end += 1 }
            guard body(trimmingSpaces(start..<end, in: bytes)) else { return }
            start = end + 1
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes in `range`, as a buffer of their own (no copy).
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[range])
    }
}
