import napkin

/// A session value that the session's napkins follow live: kept in the
/// session's record under its key, so it outlives the process, and offered
/// to every subscriber on each change. The pair a session-scoped service
/// with live state (who is signed in, a cart) would otherwise write by
/// hand, a ``SessionValues`` write and a `StateBroadcaster` send, in the
/// right order.
///
/// ```swift
/// actor AuthService {
///     private let user: SessionState<User>
///     init(values: SessionValues) { user = SessionState(.user, in: values) }
///     func login(_ signedIn: User) async throws { try await user.set(signedIn) }
///     func userStream() async -> Subscription<User?> { await user.subscribe() }
/// }
/// ```
public final class SessionState<Value: Codable & Sendable>: Sendable {
    private let key: SessionKey<Value>
    private let values: SessionValues
    private let broadcaster: StateBroadcaster<Value?>

    /// The value under `key` in `values` (`nil` when there is none), from
    /// now on followed.
    public init(_ key: SessionKey<Value>, in values: SessionValues) {
        self.key = key
        self.values = values
        broadcaster = StateBroadcaster(values.value(for: key))
    }

    /// The value now, as the session's record holds it.
    public var value: Value? { values.value(for: key) }

    /// Stores `value` (`nil` removes it), and once the record is durable
    /// offers it to every subscriber. Throws as ``SessionValues/set(_:to:)``
    /// does, and then nobody is told: the value did not change.
    public func set(_ value: Value?) async throws {
        try await values.set(key, to: value)
        // What the record holds now: of two changes racing, the later one.
        await broadcaster.send(values.value(for: key))
    }

    /// The value now, then every change.
    public func subscribe() async -> Subscription<Value?> {
        await broadcaster.subscribe()
    }
}
