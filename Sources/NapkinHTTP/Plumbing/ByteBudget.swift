import Synchronization

/// Bytes that many channels may hold between them, server-wide: the queued
/// bytes of every live event stream, say. A channel reserves what it
/// buffers and gives it back when the value leaves; a channel that cannot
/// reserve applies its policy as if it were full.
public final class ByteBudget: Sendable {
    /// The most bytes held at once.
    public let limit: Int
    private let held = Atomic<Int>(0)

    /// A budget of `limit` bytes.
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Bytes held now.
    public var used: Int { held.load(ordering: .relaxed) }

    /// Takes `bytes` if they fit; whether they did.
    func reserve(_ bytes: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limit else { return false }
            let (exchanged, original) = held.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back `bytes` taken with ``reserve(_:)``.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        held.subtract(bytes, ordering: .relaxed)
    }
}
