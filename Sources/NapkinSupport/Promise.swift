/// A value that arrives once, which any number of tasks await: napkin's one
/// "wait until it happens, or until the time is up" (package access).
///
/// The first ``resolve(_:)`` wins; later ones change nothing. A wait with a
/// limit ends with nil when the limit passes or its task is cancelled, and
/// leaves nothing behind; a wait without one ends only with the value.
/// Waits that take turns, count streams or drain a server each keep their
/// own promises: this is the only place napkin suspends a task on a
/// continuation outside its channels.
package final class Promise<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [Int: CheckedContinuation<Value?, Never>] = [:]
        /// Waits whose limit passed (or whose task was cancelled) before
        /// they were registered.
        var expired: Set<Int> = []
        var nextWaiter = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Resolves the promise with `value` and ends every wait with it;
    /// `false` when it was resolved already.
    @discardableResult
    package func resolve(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value?, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The value, if the promise is resolved.
    package var resolved: Value? {
        state.withLock { $0.value }
    }

    /// The value, once it is resolved; cancellation does not end the wait.
    /// The wait runs where the caller runs: no hop off its actor.
    package func value(isolation: isolated (any Actor)? = #isolation) async -> Value {
        // Without a limit nothing but `resolve` ends the wait.
        guard let value = await wait(limit: nil) else { preconditionFailure("a wait without a limit ended without a value") }
        return value
    }

    /// The value, or nil when `limit` passes first or the task is cancelled.
    package func value(within limit: Duration, isolation: isolated (any Actor)? = #isolation) async -> Value? {
        await wait(limit: limit)
    }

    private func wait(limit: Duration?, isolation: isolated (any Actor)? = #isolation) async -> Value? {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = limit.map { limit in
            Task { [weak self] in
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                self?.expire(id)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Value?, Never>) in
                let ready: Value?? = state.withLock { state in
                    if let value = state.value { return .some(value) }
                    if state.expired.remove(id) != nil { return .some(nil) }
                    state.waiters[id] = waiter
                    return nil
                }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            if limit != nil { expire(id) }
        }
    }

    /// Ends wait `id` with nil, now or, if it is not registered yet, as it
    /// registers. A promise already resolved has ended it with the value.
    private func expire(_ id: Int) {
        let waiter: CheckedContinuation<Value?, Never>? = state.withLock { state in
            guard state.value == nil else { return nil }
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.expired.insert(id)
            return nil
        }
        waiter?.resume(returning: nil)
    }
}
