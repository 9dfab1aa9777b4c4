@_spi(Napkin) import NapkinSupport

/// One subscriber's inbox: values waiting for it, the consumer parked in
/// `next()`, and the senders waiting for it to come back.
///
/// Memory is bounded by construction: a latest-only mailbox keeps one value
/// (a newer value replaces an unread one); a buffered mailbox keeps at most
/// `capacity` and drops the oldest when full.
final class Mailbox<Value: Sendable>: Sendable {
    struct Item: Sendable {
        let sequence: UInt64
        let value: Value
        let token: Settlement.Token?
    }

    private struct State {
        var pending: [Item] = []
        var consumer: CheckedContinuation<Value?, Never>?
        var consumerKey: Int?
        var taken: UInt64 = 0
        var processing: Settlement.Token?
        var waiters: [(sequence: UInt64, waiter: DeliveryWaiter)] = []
        var closed = false
        var dropped = 0
        /// In push mode, the handler each value is handed to, and the task
        /// running it (only while a value is being handled).
        var handler: (@Sendable (Value) async -> Void)?
        var handling: Task<Void, Never>?
    }

    /// Keep only the newest unread value (`capacity` 1, replacing) or up to
    /// `capacity` values, dropping the oldest.
    enum Policy: Sendable {
        case latest
        case buffer(capacity: Int)
    }

    private let policy: Policy
    private let state = Locked(State())
    private let onClose: @Sendable () -> Void

    init(policy: Policy, onClose: @escaping @Sendable () -> Void) {
        self.policy = policy
        self.onClose = onClose
    }

    /// Values dropped because the consumer fell behind.
    var droppedCount: Int { state.withLock { $0.dropped } }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Offers `item`; registers `waiter` unless the sender is this mailbox's
    /// own consumer (it cannot come back while it is sending). Returns
    /// whether the waiter was registered.
    @discardableResult
    func push(_ item: Item, waiter: DeliveryWaiter?, senderKey: Int?) -> Bool {
        var dropped: [Item] = []
        var registered = false
        let consumer: CheckedContinuation<Value?, Never>? = state.withLock { state in
            guard !state.closed else {
                dropped = [item]
                return nil
            }
            if let waiter, senderKey == nil || senderKey != state.consumerKey {
                state.waiters.append((item.sequence, waiter))
                waiter.expect()
                registered = true
            }
            if let consumer = state.consumer {
                state.consumer = nil
                state.taken = item.sequence
                state.processing = item.token
                return consumer
            }
            if state.handler != nil, state.handling == nil {
                startHandling(item, in: &state)
                return nil
            }
            switch policy {
            case .latest:
                dropped = state.pending
                state.pending = [item]
            case .buffer(let capacity):
                if state.pending.count >= capacity {
                    dropped.append(state.pending.removeFirst())
                    state.dropped += 1
                }
                state.pending.append(item)
            }
            return nil
        }
        for item in dropped { item.token?.leave() }
        consumer?.resume(returning: item.value)
        return registered
    }

    /// The consumer's side: acknowledges the value in hand, then returns the
    /// next one, waiting for it if needed. `nil` once closed or cancelled.
    func next() async -> Value? {
        let key = DeliveryContext.currentTaskKey()
        let (acknowledged, finished, item, closed) = state.withLock { state in
            state.consumerKey = key
            let (acknowledged, finished) = Self.finishTaken(&state)
            var item: Item?
            if !state.pending.isEmpty {
                let next = state.pending.removeFirst()
                state.taken = next.sequence
                state.processing = next.token
                item = next
            }
            return (acknowledged, finished, item, state.closed)
        }
        DeliveryContext.set(item?.token, for: key)
        finished?.leave()
        for waiter in acknowledged { waiter.acknowledge() }
        if let item { return item.value }
        if closed { return nil }

        // Nothing to do: a bound task waiting here has settled.
        Settlement.Token.current?.leave()
        let value = await withTaskCancellationHandler {
            await withCheckedContinuation { (consumer: CheckedContinuation<Value?, Never>) in
                let ready: Value?? = state.withLock { state in
                    if !state.pending.isEmpty {
                        let next = state.pending.removeFirst()
                        state.taken = next.sequence
                        state.processing = next.token
                        return .some(next.value)
                    }
                    if state.closed { return .some(nil) }
                    state.consumer = consumer
                    return nil
                }
                if let ready { consumer.resume(returning: ready) }
            }
        } onCancel: {
            close()
        }
        if value != nil {
            DeliveryContext.set(state.withLock { $0.processing }, for: key)
        }
        return value
    }

    /// The value in hand is done: returns the senders waiting for it and the
    /// settlement token it carried, both to be released outside the lock.
    private static func finishTaken(_ state: inout State) -> ([DeliveryWaiter], Settlement.Token?) {
        let finished = state.processing
        state.processing = nil
        let taken = state.taken
        let acknowledged = state.waiters.filter { $0.sequence <= taken }.map(\.waiter)
        state.waiters.removeAll { $0.sequence <= taken }
        return (acknowledged, finished)
    }

    // MARK: - Push mode

    /// Hands every value to `handler` from now on, one at a time, instead of
    /// waiting for a consumer to ask: between values no task exists at all.
    /// A value is acknowledged (to awaited deliveries and settlements) when
    /// the handler returns.
    func push(to handler: @escaping @Sendable (Value) async -> Void) {
        state.withLock { state in
            guard !state.closed, state.handler == nil else { return }
            state.handler = handler
            if !state.pending.isEmpty {
                startHandling(state.pending.removeFirst(), in: &state)
            }
        }
    }

    /// Starts a task that handles `item`, then whatever arrives meanwhile.
    /// Called holding the lock; the task takes the lock only after it starts.
    private func startHandling(_ item: Item, in state: inout State) {
        state.taken = item.sequence
        state.processing = item.token
        state.handling = Task { [self] in await handle(first: item) }
    }

    private func handle(first: Item) async {
        var item = first
        while true {
            let key = DeliveryContext.currentTaskKey()
            guard let handler = state.withLock({ state -> (@Sendable (Value) async -> Void)? in
                state.consumerKey = key
                return state.handler
            }) else { return }
            if let token = item.token {
                await Settlement.Token.$current.withValue(token) { await handler(item.value) }
            } else {
                await handler(item.value)
            }
            let (acknowledged, finished, next) = state.withLock { state in
                let (acknowledged, finished) = Self.finishTaken(&state)
                var next: Item?
                if !state.closed, !state.pending.isEmpty {
                    next = state.pending.removeFirst()
                    state.taken = next!.sequence
                    state.processing = next!.token
                } else {
                    state.handling = nil
                }
                return (acknowledged, finished, next)
            }
            finished?.leave()
            for waiter in acknowledged { waiter.acknowledge() }
            guard let next else { return }
            item = next
        }
    }

    /// Ends the subscription: wakes the consumer with `nil`, releases every
    /// waiting sender and settlement, and tells the owner. Idempotent.
    func close() {
        let closing = state.withLock { state -> Closing? in
            guard !state.closed else { return nil }
            state.closed = true
            defer {
                state.consumer = nil
                state.waiters.removeAll()
                state.pending.removeAll()
                state.processing = nil
            }
            var tokens = state.pending.compactMap(\.token)
            if let processing = state.processing { tokens.append(processing) }
            state.handling?.cancel()
            state.handler = nil
            return Closing(
                consumer: state.consumer, waiters: state.waiters.map(\.waiter),
                tokens: tokens, processingKey: state.processing == nil ? nil : state.consumerKey)
        }
        guard let closing else { return }
        DeliveryContext.set(nil, for: closing.processingKey)
        closing.consumer?.resume(returning: nil)
        for waiter in closing.waiters { waiter.acknowledge() }
        for token in closing.tokens { token.leave() }
        onClose()
    }

    private struct Closing {
        let consumer: CheckedContinuation<Value?, Never>?
        let waiters: [DeliveryWaiter]
        let tokens: [Settlement.Token]
        let processingKey: Int?
    }
}
