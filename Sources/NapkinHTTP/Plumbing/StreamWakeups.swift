#if canImport(Glibc)
import Glibc
#endif

/// Holds back the wake-ups of streamed responses while a burst of values is
/// offered, then delivers them together.
///
/// A streamed body whose channel is empty sleeps in libmicrohttpd, suspended;
/// a value offered to its channel resumes the connection, and every resume
/// wakes the connection's server loop, which then walks all of its suspended
/// connections. One change that patches 10,000 tabs would wake the loops up
/// to 10,000 times, each time walking thousands of connections, while the
/// patches are still being made. Offered inside ``coalescing(_:)``, the
/// connections are resumed one after another when the burst ends, and the
/// workers find them all at once.
public enum StreamWakeups {
    /// Runs `body`; the connections it wakes on this thread are resumed when
    /// it returns (nested calls resume with the outermost).
    public static func coalescing<T>(_ body: () throws -> T) rethrows -> T {
        if pthread_getspecific(key) != nil { return try body() }
        let batch = Batch()
        let pointer = Unmanaged.passRetained(batch).toOpaque()
        pthread_setspecific(key, pointer)
        defer {
            pthread_setspecific(key, nil)
            Unmanaged<Batch>.fromOpaque(pointer).release()
            for wake in batch.wakes { wake() }
        }
        return try body()
    }

    /// Runs `wake` when the current thread's burst ends, or now outside one.
    static func deliver(_ wake: @escaping () -> Void) {
        guard let open = pthread_getspecific(key) else {
            wake()
            return
        }
        Unmanaged<Batch>.fromOpaque(open).takeUnretainedValue().wakes.append(wake)
    }

    /// One thread's held wake-ups; only that thread touches it.
    private final class Batch {
        var wakes: [() -> Void] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
