@_spi(Napkin) import NapkinSupport
import napkin

/// Work that runs in exactly one process at a time — a ticking simulator,
/// a scheduler — wherever the lease `name` is held.
///
/// Every process runs a `LeasedWork`; the one that takes the lease starts
/// the work, renews the lease every third of `ttl`, and cancels the work
/// the moment a renewal fails. When its process dies the lease expires and
/// another process takes over within about `ttl`.
///
/// ```swift
/// let ticking = LeasedWork(name: "pit", leases: leases)
/// ticking.start { await pit.runTicking() }   // runs only while this process holds "pit"
/// ```
public final class LeasedWork: Sendable {
    private let name: String
    private let leases: any LeaseStore
    private let ttl: Duration
    /// This process's name for itself as the lease's holder.
    let holder = SecureToken.make()
    private let loop = TaskSlot()
    private let holding = Locked(false)

    /// Work under lease `name` in `leases`, held for `ttl` between renewals.
    public init(name: String, leases: any LeaseStore, ttl: Duration = .seconds(3)) {
        self.name = name
        self.leases = leases
        self.ttl = ttl
    }

    /// Who holds the lease now, as the lease store says; `nil` when nobody
    /// does or the store cannot be reached.
    func currentHolder() async -> String? {
        (try? await leases.holder(of: name)) ?? nil
    }

    /// Whether this process holds the lease now.
    public var isHolding: Bool { holding.withLock { $0 } }

    /// Starts competing for the lease; `work` runs while it is held and is
    /// cancelled when it is lost. Calling it again does nothing.
    public func start(_ work: @escaping @Sendable () async -> Void) {
        loop.start { Task { [self] in await compete(for: work) } }
    }

    /// Stops: the work is cancelled and the lease given up, so another
    /// process takes over at once rather than after it expires.
    public func stop() async {
        guard let task = loop.stop() else { return }
        await task.value
        try? await leases.release(name, holder: holder)
        holding.withLock { $0 = false }
    }

    private func compete(for work: @escaping @Sendable () async -> Void) async {
        var running: Task<Void, Never>?
        while !Task.isCancelled {
            let held: Bool
            if running != nil {
                held = (try? await leases.renew(name, holder: holder, ttl: ttl)) ?? false
            } else {
                held = (try? await leases.acquire(name, holder: holder, ttl: ttl)) ?? false
            }
            holding.withLock { $0 = held }
            if held, running == nil {
                running = Task { await work() }
            } else if !held, let lost = running {
                lost.cancel()
                await lost.value
                running = nil
            }
            try? await Task.sleep(for: ttl / 3)
        }
        running?.cancel()
        await running?.value
    }
}
