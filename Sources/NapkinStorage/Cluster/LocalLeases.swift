@_spi(Napkin) import NapkinSupport
import napkin

/// Leases within one process: the default, where the one process always
/// gets what it asks for unless another holder in it has the lease.
public final class LocalLeases: LeaseStore {
    private let holders = Locked<[String: (holder: String, expires: ContinuousClock.Instant)]>([:])
    private let clock = ContinuousClock()

    /// No leases held.
    public init() {}

    /// Takes the lease unless another holder has it and it has not expired;
    /// a holder that has it already renews it. Never throws.
    public func acquire(_ name: String, holder: String, ttl: Duration) async throws -> Bool {
        let now = clock.now
        return holders.withLock { holders in
            if let current = holders[name], current.expires > now, current.holder != holder { return false }
            holders[name] = (holder, now + ttl)
            return true
        }
    }

    /// Extends the lease if `holder` still holds it and it has not expired.
    /// Never throws.
    public func renew(_ name: String, holder: String, ttl: Duration) async throws -> Bool {
        let now = clock.now
        return holders.withLock { holders in
            guard let current = holders[name], current.holder == holder, current.expires > now else { return false }
            holders[name] = (holder, now + ttl)
            return true
        }
    }

    /// Ends the lease if `holder` holds it; otherwise does nothing. Never throws.
    public func release(_ name: String, holder: String) async throws {
        holders.withLock { holders in
            if holders[name]?.holder == holder { holders[name] = nil }
        }
    }

    /// Who holds the lease, unless it has expired. Never throws.
    public func holder(of name: String) async throws -> String? {
        let now = clock.now
        return holders.withLock { holders in
            guard let current = holders[name], current.expires > now else { return nil }
            return current.holder
        }
    }
}
