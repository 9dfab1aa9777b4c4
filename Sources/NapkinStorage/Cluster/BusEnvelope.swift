import Foundation
@_spi(Napkin) import NapkinSupport

/// A value on the bus, with where and when it was sent: a process skips
/// what it sent itself (it delivered that locally already), and a state
/// never goes back to an older value.
///
/// Whoever reaches the bus (Redis) can publish, so a payload is decoded as
/// a client's input would be: bounded in bytes, with a well-formed origin
/// and a stamp that is not in the future, and a value its own `Decodable`
/// accepts. Anything else is dropped, and logged once.
struct BusEnvelope<Value: Codable & Sendable>: Codable, Sendable {
    /// The sending process's instance id.
    let origin: String
    /// When it was sent, in milliseconds since 1970.
    let stamp: Double
    /// The lease holder that sent it, for a state sent under a lease.
    let holder: String?
    let value: Value

    /// The largest payload taken from the bus.
    static var maxBytes: Int { 64 * 1024 }
    /// How far ahead of this process's clock a stamp may be, in milliseconds
    /// (the clocks of a deployment's machines differ a little).
    static var clockSkew: Double { 5_000 }

    init(_ value: Value, origin: String, holder: String? = nil) {
        self.origin = origin
        stamp = Date().timeIntervalSince1970 * 1000
        self.holder = holder
        self.value = value
    }

    var encoded: [UInt8] {
        get throws { Array(try JSONEncoder().encode(self)) }
    }

    /// The envelope `payload` holds, or `nil` (reported as a message on
    /// `channel`) when it is not one to trust.
    static func decode(_ payload: [UInt8], channel: String) -> BusEnvelope? {
        let why: String
        if payload.count > maxBytes {
            why = "it is larger than \(maxBytes) bytes"
        } else if let envelope = try? JSONDecoder().decode(BusEnvelope.self, from: Data(payload)) {
            if !isWellFormed(envelope.origin) || !(envelope.holder.map(isWellFormed) ?? true) {
                why = "its origin or holder is malformed"
            } else if !envelope.stamp.isFinite || envelope.stamp <= 0
                || envelope.stamp > Date().timeIntervalSince1970 * 1000 + clockSkew
            {
                why = "its stamp is not a time before now"
            } else {
                return envelope
            }
        } else {
            why = "it is not a message of this channel"
        }
        RefusedInput.report("bus message on \(channel)", why)
        return nil
    }

    /// 1–64 letters, digits, `-` or `_`: what napkin's ids are made of.
    private static func isWellFormed(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == 0x2d || $0 == 0x5f
            }
    }
}

/// A random id for this process, made once.
enum ProcessInstance {
    static let id = SecureToken.make()
}
