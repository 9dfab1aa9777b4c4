import Foundation

/// A value on the bus, with where and when it was sent: a process skips
/// what it sent itself (it delivered that locally already), and a state
/// never goes back to an older value.
struct BusEnvelope<Value: Codable & Sendable>: Codable, Sendable {
    /// The sending process's instance id.
    let origin: String
    /// When it was sent, in milliseconds since 1970.
    let stamp: Double
    let value: Value

    init(_ value: Value, origin: String) {
        self.origin = origin
        stamp = Date().timeIntervalSince1970 * 1000
        self.value = value
    }

    var encoded: [UInt8] {
        get throws { Array(try JSONEncoder().encode(self)) }
    }

    static func decode(_ payload: [UInt8]) -> BusEnvelope? {
        try? JSONDecoder().decode(BusEnvelope.self, from: Data(payload))
    }
}

/// A random id for this process, made once.
enum ProcessInstance {
    static let id = SecureToken.make()
}
