@_spi(Napkin) import NapkinSupport

/// How often each client may do something: a token bucket per key (a
/// client's address), for writes anyone can make without signing in.
///
/// Each key may spend `burst` requests at once, and earns one back every
/// `interval`. At most `maxKeys` keys are remembered; past that the one
/// seen least recently is forgotten, so a flood from many addresses costs
/// bounded memory.
///
/// ```swift
/// let limiter = RateLimiter(burst: 5, interval: .seconds(2))
/// router.post("/api/announcements") { request in
///     if let wait = limiter.admit(request.peer) { return .tooManyRequests(retryAfter: wait) }
///     …
/// }
/// ```
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
        var stamp: UInt64
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        /// Keys in the order they were last seen, with the stamp of that sighting.
        var order = WriteOrder<String, UInt64>()
        var nextStamp: UInt64 = 0
    }

    /// Requests a key may make at once.
    public let burst: Int
    /// How long a key waits to earn one request back.
    public let interval: Duration
    /// The most keys remembered.
    public let maxKeys: Int
    private let state = Locked(State())
    private let clock = ContinuousClock()

    /// A limiter of `burst` requests at once per key, one more every `interval`.
    public init(burst: Int, interval: Duration, maxKeys: Int = 65_536) {
        self.burst = max(1, burst)
        self.interval = max(interval, .nanoseconds(1))
        self.maxKeys = max(1, maxKeys)
    }

    /// `nil` when a request of `key` may go ahead now (it is counted);
    /// otherwise how long until it may. Requests without a key share one.
    public func admit(_ key: String?) -> Duration? {
        let key = key ?? ""
        let now = clock.now
        let perSecond = 1 / Self.seconds(interval)
        return state.withLock { state in
            state.nextStamp += 1
            var bucket = state.buckets[key] ?? Bucket(tokens: Double(burst), updated: now, stamp: 0)
            bucket.tokens = min(Double(burst), bucket.tokens + Self.seconds(now - bucket.updated) * perSecond)
            bucket.updated = now
            bucket.stamp = state.nextStamp
            let wait: Duration?
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                wait = nil
            } else {
                wait = .seconds((1 - bucket.tokens) / perSecond)
            }
            state.buckets[key] = bucket
            state.order.append(key, stamp: bucket.stamp)
            Self.trim(&state, to: maxKeys)
            return wait
        }
    }

    /// The keys remembered now.
    var keyCount: Int { state.withLock { $0.buckets.count } }

    private static func trim(_ state: inout State, to maxKeys: Int) {
        while state.buckets.count > maxKeys,
            let oldest = state.order.removeOldest(isCurrent: { state.buckets[$0]?.stamp == $1 })
        {
            state.buckets[oldest.key] = nil
        }
        // Keys seen again and again leave stale places behind: compact them.
        if state.order.count > 4 * maxKeys + 1024 {
            state.order.keep { state.buckets[$0]?.stamp == $1 }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Response {
    /// `429 Too Many Requests`, with `Retry-After` in whole seconds
    /// (rounded up) and a short message.
    public static func tooManyRequests(retryAfter wait: Duration) -> Response {
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        var response = Response.text("Too many requests. Try again in \(seconds) s.", status: .tooManyRequests)
        response.headers["Retry-After"] = String(seconds)
        return response
    }
}
