#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which series a request's dispatch chose, handed from the router's
/// dispatch to its measuring layer outside the middleware through a
/// thread-local slot: a route's index, or one of the negative codes below.
///
/// Dispatch decides how a request is answered synchronously, on the thread
/// that called the router (the answer's work runs later, but it is chosen
/// then), so the measuring layer sets the slot, calls inward and reads it
/// back on one thread, with nothing allocated and the request not copied.
/// A middleware that passes a request on later, from a task of its own,
/// leaves the slot as `middleware`.
enum RouteChoice {
    static let middleware = -1, staticFiles = -2, fallback = -3, unmatched = -4, server = -5

    /// Codes are stored shifted, so that no code is a null pointer (a
    /// thread that never set the slot reads as `middleware`).
    private static let shift = 16
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-local key for the router's metrics")
        return key
    }()

    /// Notes `code` for the request being dispatched on this thread.
    static func choose(_ code: Int) {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: code + shift))
    }

    /// The code last chosen on this thread.
    static var chosen: Int {
        guard let raw = pthread_getspecific(key) else { return middleware }
        return Int(bitPattern: raw) - shift
    }
}
