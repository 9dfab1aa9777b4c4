import Testing
@testable import NapkinHTTP

/// The per-client limit for writes anyone can make.
@Suite("Rate limiter", .timeLimit(.minutes(1)))
struct RateLimiterTests {
    @Test("a key spends its burst, then waits; other keys are not held back")
    func burstThenWait() throws {
        let limiter = RateLimiter(burst: 3, interval: .seconds(60))
        for _ in 0..<3 { #expect(limiter.admit("203.0.113.9") == nil) }
        let wait = try #require(limiter.admit("203.0.113.9"))
        #expect(wait > .seconds(50) && wait <= .seconds(60))
        #expect(limiter.admit("198.51.100.7") == nil)
        let response = Response.tooManyRequests(retryAfter: wait)
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Retry-After"] == "60")
    }

    @Test("past its key limit it forgets the key seen least recently: memory stays bounded")
    func boundedKeys() {
        let limiter = RateLimiter(burst: 1, interval: .seconds(60), maxKeys: 100)
        #expect(limiter.admit("kept") == nil)
        for n in 0..<10_000 {
            _ = limiter.admit("10.0.\(n / 256).\(n % 256)")
            // The key used in between stays among the most recent.
            if n % 50 == 0 { #expect(limiter.admit("kept") != nil) }
        }
        #expect(limiter.keyCount <= 100)
    }
}
