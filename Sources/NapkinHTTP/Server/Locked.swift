#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex` for state that libmicrohttpd's own
/// worker threads share with each other: Mutex's futex-based lock is invisible to
/// ThreadSanitizer when both sides are foreign C threads, which made every
/// sanitizer run report false races. A pthread mutex is understood by TSan and
/// costs the same when uncontended.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched between pthread_mutex_lock/unlock of `mutex`.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
