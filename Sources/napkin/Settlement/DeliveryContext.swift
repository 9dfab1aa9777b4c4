@_spi(Napkin) import NapkinSupport
import Synchronization

/// Which settlement a subscriber is working for while it processes a value
/// that was sent inside one.
///
/// A subscriber loop is a long-lived task, so a task-local cannot carry the
/// settlement of each value it receives. Instead the mailbox records, for
/// the consumer task, the token of the value in hand until the consumer comes
/// back for the next one; work that the consumer starts meanwhile reports to
/// that settlement.
enum DeliveryContext {
    private static let tokens = Locked<[Int: Settlement.Token]>([:])
    private static let count = Atomic(0)

    /// An identity for the current task, stable while it runs.
    static func currentTaskKey() -> Int? {
        withUnsafeCurrentTask { $0?.hashValue }
    }

    static func token() -> Settlement.Token? {
        guard count.load(ordering: .relaxed) > 0, let key = currentTaskKey() else { return nil }
        return tokens.withLock { $0[key] }
    }

    static func set(_ token: Settlement.Token?, for key: Int?) {
        // The common case, outside any settlement, takes no lock.
        guard let key, token != nil || count.load(ordering: .relaxed) > 0 else { return }
        tokens.withLock { tokens in
            let old = tokens[key]
            tokens[key] = token
            if old == nil, token != nil { count.add(1, ordering: .relaxed) }
            if old != nil, token == nil { count.subtract(1, ordering: .relaxed) }
        }
    }
}
