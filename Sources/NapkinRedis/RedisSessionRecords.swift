import NapkinStorage
@_spi(Napkin) import NapkinSupport

/// Session records in Redis, shared by every process of the app.
///
/// Whoever can read Redis must not find cookies there, and whoever can
/// write it must not sign anyone in. So the record of session `id` lives at
/// `napkin:session:<HMAC-SHA256(secret, id)>` (a keyed hash: the id cannot
/// be read back from it), holds no id, and is sealed with an HMAC of the id
/// and its content; Redis's own expiry is its time to live. Every process
/// of the app must use the same secret.
///
/// A value that does not open — not sealed with this secret for this id,
/// larger than 64 KiB, or a record with a malformed CSRF token or too many
/// or too large values — is treated as no record (the visitor starts a new
/// session) and logged once per process; it stays until it expires, is
/// saved over, or is deleted.
public struct RedisSessionRecords: SessionRecordStore {
    private let client: RedisClient
    private let secret: [UInt8]

    /// Records kept through `client`, keyed and sealed with `secret`. Without
    /// one, the secret is derived from the client's Redis credentials (the
    /// same for every process given the same URL): ids still never appear
    /// in Redis, but anyone who knows the password (or any writer, when
    /// Redis has none) could forge records. Give a secret of your own, at
    /// least 16 random bytes, to every process of a deployment.
    public init(client: RedisClient, secret: [UInt8]? = nil) {
        self.client = client
        self.secret = secret ?? client.configuration.derivedSecret
    }

    /// Whether Redis answered lately (``RedisClient/isReachable``).
    public var isReachable: Bool { client.isReachable }

    /// The Redis key of session `id`'s record.
    public func key(for id: String) -> String {
        "napkin:session:" + HMAC.sha256(key: secret, message: Array("napkin session key\0\(id)".utf8)).hexDigits
    }

    /// The record of session `id`, or `nil` when there is none or its value
    /// is refused. At most 64 KiB are read (`GETRANGE`), whatever the key holds.
    public func load(id: String) async throws -> SessionRecord? {
        let key = key(for: id)
        let reply = try await client.command(["GETRANGE", key, "0", String(SealedSessionRecord.maxBytes)])
        guard case .bulk(let stored) = reply else { throw RedisError.unexpectedReply("GETRANGE \(key) did not answer a string") }
        // A missing key reads as the empty string.
        if stored.isEmpty { return nil }
        switch SealedSessionRecord.open(stored, id: id, secret: secret) {
        case .success(let record):
            return record
        case .failure(let refusal):
            RefusedInput.report("session record", refusal.why)
            return nil
        }
    }

    /// Writes `record` (`SET … PX`), expiring after `ttl` (at least 1 ms).
    /// Throws ``RedisError/tooLarge(_:)`` for a record larger than napkin
    /// would read back.
    public func save(_ record: SessionRecord, ttl: Duration) async throws {
        let key = key(for: record.id)
        let sealed = try SealedSessionRecord.seal(record, secret: secret)
        guard sealed.count <= SealedSessionRecord.maxBytes else { throw RedisError.tooLarge(key) }
        _ = try await client.command([
            Array("SET".utf8), Array(key.utf8), sealed,
            Array("PX".utf8), Array(String(ttl.wholeMilliseconds(atLeast: 1)).utf8),
        ])
    }

    /// Extends the record's expiry to `ttl` from now (`PEXPIRE`); nothing
    /// happens when there is no record.
    public func touch(id: String, ttl: Duration) async throws {
        _ = try await client.command(["PEXPIRE", key(for: id), String(ttl.wholeMilliseconds(atLeast: 1))])
    }

    /// Deletes the record (`DEL`).
    public func delete(id: String) async throws {
        _ = try await client.command(["DEL", key(for: id)])
    }
}
