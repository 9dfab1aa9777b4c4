#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Duration {
    /// Whole milliseconds, rounded up, never below `minimum`.
    func wholeMilliseconds(atLeast minimum: Int64 = 0) -> Int64 {
        let (seconds, attoseconds) = components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        var milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        if milliseconds.overflow { return seconds < 0 ? minimum : Int64.max }
        var rest = attoseconds / perMillisecond
        if attoseconds % perMillisecond > 0 { rest += 1 }
        milliseconds = milliseconds.partialValue.addingReportingOverflow(rest)
        if milliseconds.overflow { return Int64.max }
        return max(minimum, milliseconds.partialValue)
    }

    /// As a `timeval`, for hiredis's timeouts (at least one millisecond).
    var asTimeval: timeval {
        let milliseconds = min(wholeMilliseconds(atLeast: 1), 86_400_000)
        return timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
    }
}
