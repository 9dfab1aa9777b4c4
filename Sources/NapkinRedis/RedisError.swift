/// Why a Redis operation failed. The descriptions are short and human; they
/// never carry hiredis's or the server's internal dumps beyond the server's
/// own one-line error.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A Redis URL napkin cannot use; the text says what is wrong with it.
    case invalidURL(String)
    /// The server could not be reached, or the connection broke or timed
    /// out: the command may not have run. The next command connects again.
    case unreachable(String)
    /// The server answered with an error (`-ERR …`, `-WRONGTYPE …`).
    case server(String)
    /// The server answered something this client did not expect.
    case unexpectedReply(String)
    /// A stored value cannot be read back (not napkin's format, or written
    /// by something else); the text names the key.
    case corruptValue(String)
    /// A value too large for napkin to store and read back; the text names
    /// the key.
    case tooLarge(String)
    /// The client or bus was shut down.
    case shutDown

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidURL(let why): "invalid Redis URL: \(why)"
        case .unreachable(let why): why
        case .server(let message): "Redis error: \(message)"
        case .unexpectedReply(let what): "unexpected Redis reply: \(what)"
        case .corruptValue(let key): "unreadable value at Redis key \(key)"
        case .tooLarge(let key): "value too large for Redis key \(key)"
        case .shutDown: "the Redis client was shut down"
        }
    }
}
