import Foundation

/// A wait in a test that ran out of time.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Returns what `operation` returns, or throws ``TimedOut`` once `limit`
/// has passed: a bound on a wait that may never end, not a pause. The
/// operation runs in a task of its own, so even a wait that ignores
/// cancellation (`Task.value`) cannot hold the test past the limit.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ failure: @escaping @Sendable () -> String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = TestLock<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))
    let resolve: @Sendable (Result<T, any Error>) -> Bool = { result in
        let (won, waiter) = outcome.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(with: result)
        return won
    }
    let work = Task {
        do { _ = resolve(.success(try await operation())) } catch { _ = resolve(.failure(error)) }
    }
    let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        if resolve(.failure(TimedOut(description: failure()))) { work.cancel() }
    }
    defer { timer.cancel() }
    return try await withCheckedThrowingContinuation { waiter in
        let ready = outcome.withLock { state -> Result<T, any Error>? in
            if let result = state.result { return result }
            state.waiter = waiter
            return nil
        }
        if let ready { waiter.resume(with: ready) }
    }
}
