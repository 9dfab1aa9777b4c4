import CMicroHTTPD
@_spi(Napkin) import NapkinSupport

/// Open connections per client address, across every loop of a server, so
/// the per-address limit holds for the server as a whole.
///
/// A connection is counted when libmicrohttpd starts it and uncounted when it
/// closes; the accept-policy check reads the count. Loops accept in parallel,
/// so an address may pass the limit by at most one connection per other loop.
final class PeerConnections: Sendable {
    private struct Address: Hashable {
        var high: UInt64
        var low: UInt64
    }

    /// The most connections from one address; `0` for no limit.
    let limit: Int
    private let counts = Locked([Address: Int]())

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether a new connection from `address` may be accepted.
    func admits(_ address: UnsafePointer<sockaddr>?) -> Bool {
        guard limit > 0, let key = PeerConnections.key(address) else { return true }
        return counts.withLock { ($0[key] ?? 0) < limit }
    }

    /// Counts a connection libmicrohttpd started.
    func opened(_ connection: OpaquePointer?) {
        guard limit > 0, let key = PeerConnections.key(connection) else { return }
        counts.withLock { $0[key, default: 0] += 1 }
    }

    /// Uncounts a connection that closed.
    func closed(_ connection: OpaquePointer?) {
        guard limit > 0, let key = PeerConnections.key(connection) else { return }
        counts.withLock { counts in
            let left = (counts[key] ?? 1) - 1
            counts[key] = left > 0 ? left : nil
        }
    }

    private static func key(_ address: UnsafePointer<sockaddr>?) -> Address? {
        var key = Address(high: 0, low: 0)
        return napkin_address_key(address, &key.high, &key.low) != 0 ? key : nil
    }

    private static func key(_ connection: OpaquePointer?) -> Address? {
        guard let connection else { return nil }
        var key = Address(high: 0, low: 0)
        return napkin_connection_address_key(connection, &key.high, &key.low) != 0 ? key : nil
    }
}
