import Foundation
import NapkinWeb

/// Session records in Redis, shared by every process of the app: the record
/// of session `id` is JSON at key `napkin:session:<id>`, with Redis's own
/// expiry as its time to live.
///
/// A value that is not a record of that session (not napkin's JSON, or a
/// different id) is never taken for a missing one: ``load(id:)`` throws
/// ``RedisError/corruptValue(_:)``, so napkin answers 503 rather than
/// silently starting the user over. Such a value stays until it expires,
/// is saved over, or is deleted.
public struct RedisSessionRecords: SessionRecordStore {
    private let client: RedisClient

    /// Records kept through `client`.
    public init(client: RedisClient) {
        self.client = client
    }

    /// The Redis key of session `id`'s record.
    public static func key(for id: String) -> String {
        "napkin:session:\(id)"
    }

    /// The record of session `id` (`GET`), or `nil` when there is none.
    public func load(id: String) async throws -> SessionRecord? {
        let key = Self.key(for: id)
        let reply = try await client.command(["GET", key])
        if reply.isNull { return nil }
        guard case .bulk(let bytes) = reply else { throw RedisError.unexpectedReply("GET \(key) did not answer a string") }
        guard let record = try? JSONDecoder().decode(SessionRecord.self, from: Data(bytes)), record.id == id else {
            throw RedisError.corruptValue(key)
        }
        return record
    }

    /// Writes `record` (`SET … PX`), expiring after `ttl` (at least 1 ms).
    public func save(_ record: SessionRecord, ttl: Duration) async throws {
        let json = try JSONEncoder().encode(record)
        let key = Self.key(for: record.id)
        _ = try await client.command([
            Array("SET".utf8), Array(key.utf8), Array(json),
            Array("PX".utf8), Array(String(ttl.wholeMilliseconds(atLeast: 1)).utf8),
        ])
    }

    /// Extends the record's expiry to `ttl` from now (`PEXPIRE`); nothing
    /// happens when there is no record.
    public func touch(id: String, ttl: Duration) async throws {
        _ = try await client.command(["PEXPIRE", Self.key(for: id), String(ttl.wholeMilliseconds(atLeast: 1))])
    }

    /// Deletes the record (`DEL`).
    public func delete(id: String) async throws {
        _ = try await client.command(["DEL", Self.key(for: id)])
    }
}
