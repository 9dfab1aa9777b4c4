@_spi(Napkin) import NapkinSupport

/// One subscriber's inbox: a ``Channel`` of the values waiting for it, and
/// what delivery needs on top — the value in hand, the senders waiting for
/// the subscriber to come back for the next one, and push mode.
///
/// Memory is bounded by the channel's policy: a latest-only mailbox keeps
/// one unread value (a newer one replaces it); a buffered mailbox keeps at
/// most `capacity` and drops the oldest. A value the channel lets go unread
/// gives back its settlement token on the way out.
final class Mailbox<Value: Sendable>: Sendable, ChannelWaker {
    struct Item: Sendable {
        let sequence: UInt64
        let value: Value
        let token: Settlement.Token?
    }

    /// Delivery's bookkeeping. The channel has its own lock; nothing holds
    /// this one while it calls the channel, except the push-mode handler's
    /// `sleeping` step, so the two are always taken channel first.
    private struct State {
        var consumerKey: Int?
        var taken: UInt64 = 0
        var processing: Settlement.Token?
        var waiters: [(sequence: UInt64, waiter: DeliveryWaiter)] = []
        var closed = false
        /// In push mode, the handler each value is handed to, and the task
        /// running it (only while values are being handled).
        var handler: (@Sendable (Value) async -> Void)?
        var handling: Task<Void, Never>?
    }

    /// Keep only the newest unread value (`capacity` 1, replacing) or up to
    /// `capacity` values, dropping the oldest.
    enum Policy: Sendable {
        case latest
        case buffer(capacity: Int)
    }

    private let channel: Channel<Item>
    private let state = Locked(State())
    private let onClose: @Sendable () -> Void

    init(policy: Policy, onClose: @escaping @Sendable () -> Void) {
        let capacity =
            switch policy {
            case .latest: 1
            case .buffer(let capacity): capacity
            }
        channel = Channel(policy: .dropOldest(capacity: capacity)) { $0.token?.leave() }
        self.onClose = onClose
    }

    /// Values dropped (or, latest-only, replaced) before the consumer read them.
    var droppedCount: Int { channel.droppedCount }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Offers `item`; registers `waiter` unless the sender is this mailbox's
    /// own consumer (it cannot come back while it is sending). Returns
    /// whether the waiter was registered.
    @discardableResult
    func push(_ item: Item, waiter: DeliveryWaiter?, senderKey: Int?) -> Bool {
        var registered = false
        if let waiter {
            let open = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                if senderKey == nil || senderKey != state.consumerKey {
                    state.waiters.append((item.sequence, waiter))
                    waiter.expect()
                    registered = true
                }
                return true
            }
            guard open else {
                item.token?.leave()
                return false
            }
        }
        // Refused only once closed, and closing acknowledged the waiter.
        if !channel.offer(item) { item.token?.leave() }
        return registered
    }

    /// The consumer's side: acknowledges the value in hand, then returns the
    /// next one, waiting for it if needed. `nil` once closed or cancelled.
    func next() async -> Value? {
        let key = DeliveryContext.currentTaskKey()
        finishInHand(consumer: key)
        var next = channel.poll()
        if case .pending = next {
            // Nothing to do: a bound task waiting here has settled.
            Settlement.Token.current?.leave()
            // Cancelling the wait cancels the channel, which ends in `nil`.
            if let item = try? await channel.next() { next = .value(item) } else { next = .end }
        }
        guard case .value(let item) = next, hold(item, consumer: key) else {
            close()
            return nil
        }
        return item.value
    }

    /// Records `item` as the value in hand (of the consumer `key`, pulling);
    /// `false` when the mailbox closed while the item was on its way, whose
    /// token then leaves here.
    private func hold(_ item: Item, consumer key: Int?) -> Bool {
        let held = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.taken = item.sequence
            state.processing = item.token
            return true
        }
        guard held else {
            item.token?.leave()
            return false
        }
        DeliveryContext.set(item.token, for: key)
        return true
    }

    /// The value in hand is done: the senders waiting for it are let go and
    /// its settlement token leaves.
    private func finishInHand(consumer key: Int?) {
        let (finished, acknowledged) = state.withLock { state in
            state.consumerKey = key
            let finished = state.processing
            state.processing = nil
            let taken = state.taken
            let acknowledged = state.waiters.filter { $0.sequence <= taken }.map(\.waiter)
            state.waiters.removeAll { $0.sequence <= taken }
            return (finished, acknowledged)
        }
        DeliveryContext.set(nil, for: key)
        finished?.leave()
        for waiter in acknowledged { waiter.acknowledge() }
    }

    // MARK: - Push mode

    /// Hands every value to `handler` from now on, one at a time, instead of
    /// waiting for a consumer to ask: between values no task exists at all.
    /// A value is acknowledged (to awaited deliveries and settlements) when
    /// the handler returns.
    func push(to handler: @escaping @Sendable (Value) async -> Void) {
        let start = state.withLock { state -> Bool in
            guard !state.closed, state.handler == nil else { return false }
            state.handler = handler
            return true
        }
        if start { wake() }
    }

    /// In push mode, takes the next value at once (in the sender's turn, so
    /// no later value replaces it first) and starts a task to handle it; with
    /// none ready, registers to be woken by the next. The channel calls this
    /// with a value or its end.
    func wake() {
        switch channel.poll(waking: self, sleeping: {}) {
        case .value(let item): startHandling(item)
        case .pending: break
        case .end, .failed: close()
        }
    }

    /// Records `item` as in hand and starts the task that handles it, then
    /// whatever arrives meanwhile.
    private func startHandling(_ item: Item) {
        let started = state.withLock { state -> Bool in
            guard !state.closed, let handler = state.handler else { return false }
            state.taken = item.sequence
            state.processing = item.token
            state.handling = Task { [self] in await handle(first: item, with: handler) }
            return true
        }
        if !started { item.token?.leave() }
    }

    private func handle(first: Item, with handler: @escaping @Sendable (Value) async -> Void) async {
        let key = DeliveryContext.currentTaskKey()
        state.withLock { $0.consumerKey = key }
        var item = first
        while true {
            if let token = item.token {
                await Settlement.Token.$current.withValue(token) { await handler(item.value) }
            } else {
                await handler(item.value)
            }
            finishInHand(consumer: key)
            // With nothing left, the task is forgotten as the waker is
            // registered: the next value's task is then the only one.
            switch channel.poll(waking: self, sleeping: { state.withLock { $0.handling = nil } }) {
            case .value(let next):
                guard hold(next, consumer: nil) else { return }
                item = next
            case .pending:
                return
            case .end, .failed:
                close()
                return
            }
        }
    }

    /// Ends the subscription: wakes the consumer with `nil`, releases every
    /// waiting sender and settlement, and tells the owner. Idempotent.
    func close() {
        let closing = state.withLock { state -> Closing? in
            guard !state.closed else { return nil }
            state.closed = true
            defer {
                state.waiters.removeAll()
                state.processing = nil
                state.handler = nil
                state.handling = nil
            }
            return Closing(
                waiters: state.waiters.map(\.waiter), processing: state.processing,
                processingKey: state.processing == nil ? nil : state.consumerKey, handling: state.handling)
        }
        guard let closing else { return }
        closing.handling?.cancel()
        channel.cancel()
        DeliveryContext.set(nil, for: closing.processingKey)
        for waiter in closing.waiters { waiter.acknowledge() }
        closing.processing?.leave()
        onClose()
    }

    private struct Closing {
        let waiters: [DeliveryWaiter]
        let processing: Settlement.Token?
        let processingKey: Int?
        let handling: Task<Void, Never>?
    }
}
