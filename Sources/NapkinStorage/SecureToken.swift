/// Random tokens for session ids and CSRF tokens: 128 bits from the
/// system's cryptographically secure generator, as 32 hex digits.
package enum SecureToken {
    /// A new token.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(high: generator.next(), low: generator.next())
    }

    /// The token of 128 bits `high` and `low`: 32 lowercase hex digits.
    package static func hex(high: UInt64, low: UInt64) -> String {
        // Written in place at its exact size: every session holds a few.
        String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<32 {
                let nibble = UInt8(truncatingIfNeeded: (index < 16 ? high : low) >> UInt64(60 - (index % 16) * 4)) & 0xf
                buffer[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble  // 0-9, a-f
            }
            return 32
        }
    }

    /// Whether `candidate` has the shape of a token (so junk is never looked up).
    package static func isWellFormed(_ candidate: String) -> Bool {
        candidate.utf8.count == 32 && candidate.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Compares in time that does not depend on where the strings differ.
    package static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
