import NapkinStorage

/// Leases in Redis, one holder at a time across every process of the app:
/// lease `name` is key `napkin:lease:<name>` holding its holder's name, with
/// Redis's expiry as the lease's end. Renewing and releasing check the
/// holder and act in one step (a Lua script), so a holder whose lease has
/// expired and been taken can never extend or end its successor's.
public struct RedisLeases: LeaseStore {
    private let client: RedisClient

    /// Leases kept through `client`.
    public init(client: RedisClient) {
        self.client = client
    }

    /// The Redis key of lease `name`.
    public static func key(for name: String) -> String {
        "napkin:lease:\(name)"
    }

    private static let renewScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            return redis.call('PEXPIRE', KEYS[1], ARGV[2])
        end
        return 0
        """

    private static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            return redis.call('DEL', KEYS[1])
        end
        return 0
        """

    /// Takes the lease if it is free (`SET … NX PX`).
    public func acquire(_ name: String, holder: String, ttl: Duration) async throws -> Bool {
        let reply = try await client.command([
            "SET", Self.key(for: name), holder, "NX", "PX", String(ttl.wholeMilliseconds(atLeast: 1)),
        ])
        switch reply {
        case .status: return true
        case .null: return false
        default: throw RedisError.unexpectedReply("SET NX answered neither OK nor nil")
        }
    }

    /// Extends the lease if `holder` still holds it.
    public func renew(_ name: String, holder: String, ttl: Duration) async throws -> Bool {
        let reply = try await client.command([
            "EVAL", Self.renewScript, "1", Self.key(for: name), holder, String(ttl.wholeMilliseconds(atLeast: 1)),
        ])
        guard let changed = reply.integer else { throw RedisError.unexpectedReply("the renew script did not answer a number") }
        return changed == 1
    }

    /// Ends the lease if `holder` holds it; otherwise does nothing.
    public func release(_ name: String, holder: String) async throws {
        _ = try await client.command(["EVAL", Self.releaseScript, "1", Self.key(for: name), holder])
    }

    /// Who holds the lease (`GET`); `nil` when nobody does.
    public func holder(of name: String) async throws -> String? {
        try await client.command(["GET", Self.key(for: name)]).string
    }
}
