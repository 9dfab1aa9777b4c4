/// A session id or CSRF token as an in-memory store holds it: one of
/// napkin's tokens (32 lowercase hex digits) as its 128 bits, inline, so a
/// record holding no value owns nothing on the heap; anything else as text.
///
/// A store that outlives a flood of sessions keeps a few of their records;
/// as strings, each would pin an allocator page of its own.
enum PackedToken: Hashable, Sendable {
    case bits(high: UInt64, low: UInt64)
    case text(String)

    init(_ token: String) {
        guard SecureToken.isWellFormed(token) else {
            self = .text(token)
            return
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in token.utf8.enumerated() {
            let nibble = UInt64(byte <= 0x39 ? byte - 0x30 : byte - 0x57)
            if index < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
        }
        self = .bits(high: high, low: low)
    }

    /// The token as it was given.
    var string: String {
        switch self {
        case .bits(let high, let low): SecureToken.hex(high: high, low: low)
        case .text(let text): text
        }
    }
}
