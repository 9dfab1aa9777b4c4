#if canImport(Glibc)
import Glibc
#endif

/// Holds back the wake-ups of streamed responses while a burst of values is
/// offered, then delivers them together.
///
/// A streamed body whose channel is empty sleeps in libmicrohttpd, suspended;
/// a value offered to its channel resumes the connection, and the resume
/// wakes the connection's server loop, which then walks all of its suspended
/// connections. One change that patches 10,000 tabs would wake the loops up
/// to 10,000 times, each time walking thousands of connections, while the
/// patches are still being made. Offered inside ``coalescing(_:)``, the
/// connections are resumed one after another when the burst ends, and only
/// then is each loop woken, once: it finds them all resumed on its first turn.
package enum StreamWakeups {
    /// Runs `body`; the connections it wakes on this thread are resumed when
    /// it returns (nested calls resume with the outermost).
    package static func coalescing<T>(_ body: () throws -> T) rethrows -> T {
        if pthread_getspecific(key) != nil { return try body() }
        let batch = Batch()
        let pointer = Unmanaged.passRetained(batch).toOpaque()
        pthread_setspecific(key, pointer)
        defer {
            pthread_setspecific(key, nil)
            Unmanaged<Batch>.fromOpaque(pointer).release()
            for wake in batch.wakes { wake() }
            for loop in batch.loops { loop.wake() }
        }
        return try body()
    }

    /// Runs `wake`, then wakes `loop`: when the current thread's burst ends
    /// (each loop once, after every `wake` of the burst), or now outside one.
    static func deliver(_ wake: @escaping () -> Void, thenWaking loop: (any LoopWaking)? = nil) {
        guard let open = pthread_getspecific(key) else {
            wake()
            loop?.wake()
            return
        }
        let batch = Unmanaged<Batch>.fromOpaque(open).takeUnretainedValue()
        batch.wakes.append(wake)
        if let loop, !batch.loops.contains(where: { $0 === loop }) { batch.loops.append(loop) }
    }

    /// One thread's held wake-ups; only that thread touches it.
    private final class Batch {
        var wakes: [() -> Void] = []
        /// The loops to wake at the end: a handful, so a list.
        var loops: [any LoopWaking] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}

/// What a burst wakes once at its end: a server loop.
protocol LoopWaking: AnyObject {
    func wake()
}
