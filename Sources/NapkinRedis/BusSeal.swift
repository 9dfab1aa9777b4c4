@_spi(Napkin) import NapkinSupport

/// A bus payload as Redis carries it: the HMAC-SHA256 of its Redis channel
/// and the payload, keyed with the deployment's secret, then the payload.
///
/// Whoever can write to Redis can publish on any channel; without the key
/// what they publish does not open, so it is dropped before any process
/// decodes it (and the first such message is logged). The channel is in
/// the seal, so a message cannot be moved to another channel either.
struct BusSeal: Sendable {
    /// The largest sealed payload opened; a larger one is dropped unhashed.
    static let maxBytes = 64 * 1024 + length
    private static let length = 32
    let secret: [UInt8]

    /// `payload`, sealed for Redis channel `channel`.
    func seal(_ payload: [UInt8], on channel: String) -> [UInt8] {
        mac(payload[...], channel: channel) + payload
    }

    /// The payload `sealed` carries on Redis channel `channel`, or `nil`
    /// (reported once) when it is not sealed with this key for it.
    func open(_ sealed: [UInt8], on channel: String) -> [UInt8]? {
        let why: String
        if sealed.count > Self.maxBytes {
            why = "it is larger than \(Self.maxBytes) bytes"
        } else if sealed.count < Self.length {
            why = "it is too short to be sealed"
        } else if HMAC.equal(Array(sealed[..<Self.length]), mac(sealed[Self.length...], channel: channel)) {
            return Array(sealed[Self.length...])
        } else {
            why = "its seal does not match (not sent by a process of this app, or for another channel)"
        }
        RefusedInput.report("bus message on \(channel)", why)
        return nil
    }

    private func mac(_ payload: ArraySlice<UInt8>, channel: String) -> [UInt8] {
        HMAC.sha256(key: secret, message: Array("napkin bus\0\(channel)\0".utf8) + payload)
    }
}
