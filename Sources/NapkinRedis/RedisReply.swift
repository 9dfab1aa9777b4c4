/// One reply from Redis. An error reply to a command throws
/// ``RedisError/server(_:)`` instead; ``error(_:)`` appears only inside
/// arrays (a script's or a transaction's results).
public enum RedisReply: Sendable, Equatable {
    /// A status line, such as `OK` or `PONG`.
    case status(String)
    /// An error line inside an array.
    case error(String)
    /// An integer.
    case integer(Int)
    /// A bulk string: bytes, binary-safe.
    case bulk([UInt8])
    /// No value (a missing key, a `SET … NX` that did not set).
    case null
    /// A list of replies.
    indirect case array([RedisReply])

    /// The bytes of a bulk string or status; `nil` for anything else.
    public var bytes: [UInt8]? {
        switch self {
        case .bulk(let bytes): bytes
        case .status(let text): Array(text.utf8)
        default: nil
        }
    }

    /// A bulk string or status as text (invalid UTF-8 repaired); `nil` for
    /// anything else.
    public var string: String? {
        switch self {
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// The value of an integer reply; `nil` for anything else.
    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// Whether this is ``null``.
    public var isNull: Bool { self == .null }
}
