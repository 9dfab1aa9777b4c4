/// A key's arrival or departure in a ``Presence`` topic, across every
/// process: a key joins when its first tracker anywhere starts and leaves
/// when its last one ends.
public enum PresenceChange<Metadata: Sendable & Equatable>: Sendable, Equatable {
    /// `key` is present now, with `metadata`.
    case joined(String, Metadata)
    /// `key` is no longer present.
    case left(String)

    /// The key that joined or left.
    public var key: String {
        switch self {
        case .joined(let key, _), .left(let key): key
        }
    }
}
