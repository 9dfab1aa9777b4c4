import Foundation

/// The latest pit as `GET /api/pit` sends it, which request threads read
/// while the pit's actor writes it: a lock (Foundation's `NSLock`, which
/// ThreadSanitizer can see) rather than a trip to the actor per request.
final class EncodedPit: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes last stored.
    var current: [UInt8] {
        lock.withLock { bytes }
    }

    /// Stores `new` in place of the bytes held.
    func store(_ new: [UInt8]) {
        lock.withLock { bytes = new }
    }
}
