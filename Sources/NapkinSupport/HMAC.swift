/// HMAC-SHA256 (RFC 2104): keyed hashes of session ids and seals of stored
/// records, so what Redis holds neither names a session nor can be forged
/// without the key.
@_spi(Napkin) public enum HMAC {
    private static let blockSize = 64

    /// The 32-byte HMAC-SHA256 of `message` under `key` (a key longer than a
    /// block is hashed first, as the RFC says).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
        return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
    }

    /// Whether two digests are equal, in time that does not depend on
    /// where they differ.
    public static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}

extension Array where Element == UInt8 {
    /// The bytes as lowercase hex digits.
    @_spi(Napkin) public var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }
}
