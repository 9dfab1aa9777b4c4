import CMicroHTTPD
@_spi(Napkin) import NapkinSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Connections waiting for a request head, each with the moment it started
/// waiting, so that none waits past the server's head deadline however
/// slowly its bytes come, and waiting ones cannot fill the server.
///
/// libmicrohttpd's idle timeout starts again on every byte, so a client
/// sending its head a byte at a time would keep its connection forever. A
/// connection waits for a head from its start, or (in a second table,
/// uncapped) from the end of its last response when kept alive; it stops
/// at the head's end (the access handler's first call) or when it closes.
/// Past the deadline, and whenever more than ``cap`` wait, the
/// longest-waiting are shut down (`shutdown(2)` on the socket, which
/// libmicrohttpd then sees close).
///
/// Shutting down happens under the table's lock, and libmicrohttpd's
/// closed notification takes the entry out under it before the socket is
/// closed: a socket is never shut down after its number was reused.
final class HeadDeadlines: Sendable {
    private struct Table {
        /// When each waiting connection (by address) started waiting.
        var waiting: [UInt: ContinuousClock.Instant] = [:]
        /// The same, oldest first.
        var order = WriteOrder<UInt, ContinuousClock.Instant>()
    }

    /// How long a connection may wait for a whole head.
    let deadline: Duration
    /// The most connections waiting for a head at once.
    let cap: Int
    private let table = Locked(Table())
    /// How many connections wait, written under the table's lock: a loop's
    /// turn with none waiting skips the lock and the clock.
    private let waitingCount = Atomic<Int>(0)

    init(deadline: Duration, cap: Int) {
        self.deadline = deadline
        self.cap = max(1, cap)
    }

    /// `connection` waits for a head from now; past the cap, the longest-waiting one is shut down.
    func begin(_ connection: OpaquePointer?) {
        guard let key = HeadDeadlines.key(connection) else { return }
        let now = ContinuousClock.now
        table.withLock { table in
            table.waiting[key] = now
            table.order.append(key, stamp: now)
            while table.waiting.count > cap, let oldest = table.order.removeOldest(isCurrent: { table.waiting[$0] == $1 }) {
                table.waiting[oldest.key] = nil
                HeadDeadlines.shutDown(oldest.key)
            }
            waitingCount.store(table.waiting.count, ordering: .relaxed)
        }
    }

    /// `connection` has its head, or closed.
    func end(_ connection: OpaquePointer?) {
        guard let key = HeadDeadlines.key(connection) else { return }
        table.withLock { table in
            guard table.waiting.removeValue(forKey: key) != nil else { return }
            // With nobody waiting, every place in the order is stale.
            if table.waiting.isEmpty { table.order = WriteOrder() }
            waitingCount.store(table.waiting.count, ordering: .relaxed)
        }
    }

    /// Shuts down every connection waiting past the deadline; returns the
    /// milliseconds until the next one's deadline (-1: none waits).
    func expire() -> Int32 {
        guard waitingCount.load(ordering: .relaxed) > 0 else { return -1 }
        let now = ContinuousClock.now
        return table.withLock { table -> Int32 in
            while let (key, since) = table.order.oldest(isCurrent: { table.waiting[$0] == $1 }) {
                let left = since + deadline - now
                guard left <= .zero else {
                    let (seconds, attoseconds) = left.components
                    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
                }
                _ = table.order.removeOldest(isCurrent: { table.waiting[$0] == $1 })
                table.waiting[key] = nil
                waitingCount.store(table.waiting.count, ordering: .relaxed)
                HeadDeadlines.shutDown(key)
            }
            return -1
        }
    }

    /// Shuts down every waiting connection now (a draining server lets go
    /// of its idle kept-alive connections, so a proxy opens its next one
    /// elsewhere).
    func shutDownAll() {
        table.withLock { table in
            for key in table.waiting.keys { HeadDeadlines.shutDown(key) }
            table.waiting.removeAll()
            table.order = WriteOrder()
            waitingCount.store(0, ordering: .relaxed)
        }
    }

    private static func shutDown(_ key: UInt) {
        guard let connection = OpaquePointer(bitPattern: key) else { return }
        let fd = napkin_connection_fd(connection)
        if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static func key(_ connection: OpaquePointer?) -> UInt? {
        connection.map { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) }
    }
}
