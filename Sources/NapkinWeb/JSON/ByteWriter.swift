/// Where an encoder puts its bytes: a counter, to size a buffer exactly,
/// then a writer into that buffer.
protocol ByteSink {
    mutating func put(_ byte: UInt8)
}

/// Counts the bytes an encoder would write.
struct ByteCounter: ByteSink {
    private(set) var count = 0

    @inline(__always)
    mutating func put(_ byte: UInt8) { count += 1 }
}

/// Writes bytes into a buffer already sized for them (see ``ByteCounter``).
/// A byte written past the end traps in debug builds (the buffer's own
/// check), and so does a copy of many bytes in any build.
struct ByteWriter: ByteSink {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Writes `text`'s bytes.
    mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `bytes`.
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= buffer.count - count, "more bytes than were counted")
        guard let source = bytes.baseAddress, let base = buffer.baseAddress else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Writes `value` in decimal.
    mutating func put(decimal value: UInt64) {
        let digits = Self.decimalCount(value)
        precondition(digits <= buffer.count - count, "more bytes than were counted")
        var rest = value
        for index in stride(from: count + digits - 1, through: count, by: -1) {
            buffer[index] = UInt8(0x30 + rest % 10)
            rest /= 10
        }
        count += digits
    }

    /// How many bytes ``put(decimal:)`` writes for `value`.
    static func decimalCount(_ value: UInt64) -> Int {
        var digits = 1
        var probe = value
        while probe >= 10 { probe /= 10; digits += 1 }
        return digits
    }
}
