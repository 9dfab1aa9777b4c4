#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock read as whole nanoseconds: what the access log and
/// request metrics time every request with. A `ContinuousClock` instant is
/// 128-bit attoseconds, and a `Duration`'s `components` divide them, which
/// costs more than the read; an integer subtraction costs nothing.
package enum MonotonicNanoseconds {
    /// Now, in nanoseconds since an unspecified start.
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
