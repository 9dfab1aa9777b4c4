#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread` mutex, shared by napkin's modules
/// (not part of napkin's API: it is SPI, imported with
/// `@_spi(Napkin) import NapkinSupport`).
///
/// napkin uses this instead of `Synchronization.Mutex` because ThreadSanitizer
/// understands `pthread_mutex_t`, and napkin's suite runs under it: with a
/// futex-based lock it reports races that cannot happen — every time when both
/// sides are libmicrohttpd's own worker threads — and a real race would hide
/// among them. Uncontended, a pthread mutex costs the same.
@_spi(Napkin) public final class Locked<State>: @unchecked Sendable {
    // Safe to share: every access to `state` happens inside `withLock`,
    // holding `mutex`. Visible to the inlined `withLock` only.
    @usableFromInline var state: State
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Guards `state`.
    public init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Inlined where it is
    /// called: a stream takes several locks per event, and a generic call
    /// into another module costs more than the lock itself. (SPI rather than
    /// `package` access for this reason: the toolchain does not inline a
    /// `package` function into another module.)
    @inlinable
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
