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
/// sides are napkin's server-loop threads — and a real race would hide
/// among them. Uncontended, a pthread mutex costs the same.
///
/// The value and its mutex live in one allocation (a `ManagedBuffer` whose
/// header is the value and whose one element is the mutex): a live tab holds
/// a dozen of these, and a separately allocated mutex cost each of them a
/// second heap block. Copies of a `Locked` share that storage, as
/// references to one lock.
@_spi(Napkin) public struct Locked<State>: @unchecked Sendable {
    // Safe to share: every access to the value happens inside `withLock`,
    // holding the mutex. Visible to the inlined `withLock` only.
    @usableFromInline let storage: Storage

    /// Guards `state`.
    public init(_ state: State) {
        storage = Storage.make(state)
    }

    /// Runs `body` with exclusive access to the state. Inlined where it is
    /// called: a stream takes several locks per event, and a generic call
    /// into another module costs more than the lock itself. (SPI rather than
    /// `package` access for this reason: the toolchain does not inline a
    /// `package` function into another module.)
    @inlinable
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }

    /// The value (header) and the mutex (the one element), in one block.
    @usableFromInline final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        static func make(_ state: State) -> Storage {
            let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in state }, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                pthread_mutex_init(mutex, nil)
            }
            return storage
        }

        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }
}
