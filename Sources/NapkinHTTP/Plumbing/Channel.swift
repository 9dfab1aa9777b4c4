@_spi(Napkin) import NapkinSupport

/// A single-consumer channel with a bounded buffer, a stated policy for when
/// it is full, and one lifecycle that every exit goes through.
///
/// napkin moves everything that flows to a client through one of these: the
/// chunks of a streamed response body, the events of an event stream, the
/// patches of a session's tab. Each had its own "park a continuation under a
/// lock, resume it outside, survive cancel racing close racing finish" code;
/// now there is one, and its phases are explicit:
///
/// ```
///  open ──finish()──► finishing ──(buffer drained)──┐
///    │                    │                          ▼
///    └──────cancel()──────┴──────cancel()───────► terminated
/// ```
///
/// - `finish(throwing:)` is the producer's end: no more values; the consumer
///   still reads what is buffered, then gets `nil` (or the error).
/// - `cancel()` is the consumer's end (client gone, response discarded,
///   reader task cancelled): everything buffered is dropped at once.
/// - Reaching `terminated` — by either road — runs the termination handlers
///   exactly once, wakes every waiter, and releases every buffered value.
///   That is where owners unregister the stream, cancel producer tasks and
///   stop heartbeats, so no exit path can leave residue behind.
///
/// The consumer reads with ``next()`` (async) or, from a C callback that
/// cannot await, with ``poll(waker:)``.
///
/// The methods a live stream calls per event are pre-specialized for the
/// two elements napkin serves, byte arrays (streamed bodies) and
/// ``EventFrame``s (event streams): called from another module, the generic
/// entry hands over to the specialized code. The busiest,
/// ``offer(_:key:)-(Element,_)``, also has an overload for each, so a tab's
/// patches skip even the generic entry.
public final class Channel<Element: Sendable>: Sendable {
    /// What happens when a value arrives and the buffer is full.
    public enum Policy: Sendable {
        /// ``send(_:)`` waits until the consumer makes room (`capacity: 1` is
        /// "one ahead"); ``offer(_:key:)-(Element,_)`` refuses the value.
        case backpressure(capacity: Int)
        /// The oldest unread value is dropped to make room.
        case dropOldest(capacity: Int)
        /// The channel finishes: the consumer reads what is buffered, then the
        /// end. For consumers that can recover by starting over (an event
        /// stream's client reconnects and is sent the whole page).
        case finishWhenFull(capacity: Int)

        var capacity: Int {
            switch self {
            case .backpressure(let n), .dropOldest(let n), .finishWhenFull(let n): Swift.max(1, n)
            }
        }
    }

    /// The lifecycle phase.
    enum Phase {
        case open
        case finishing((any Error)?)
        case terminated
    }

    /// What ``poll(waker:)`` found.
    public enum Poll {
        /// The next value.
        case value(Element)
        /// Nothing yet; the waker is called once something changes.
        case pending
        /// The channel ended cleanly.
        case end
        /// The producer finished with an error.
        case failed(any Error)
    }

    private struct Entry {
        let value: Element
        let key: String?
        /// Its bytes, when the channel counts them (else 0).
        var cost = 0
    }

    private enum Consumer {
        case task(CheckedContinuation<Element?, any Error>)
        case waker(@Sendable () -> Void)
        /// A waker that is an object: registering it allocates nothing.
        case wakerObject(any ChannelWaker)

        /// A poller's waker, of either kind (not a waiting task).
        var isWaker: Bool {
            if case .task = self { false } else { true }
        }

        /// A waiting task gets `result`; a poller's waker is called (it polls
        /// again for what there is). Called outside the lock.
        func resume(with result: Result<Element?, any Error>) {
            switch self {
            case .task(let continuation): continuation.resume(with: result)
            case .waker(let waker): waker()
            case .wakerObject(let waker): waker.wake()
            }
        }
    }

    private struct State {
        var phase = Phase.open
        var buffer: [Entry] = []
        var consumer: Consumer?
        var senders: [CheckedContinuation<Bool, Never>] = []
        var onTermination: [@Sendable () -> Void] = []
        var dropped = 0
        /// The bytes of the buffered values, when the channel counts them.
        var bufferedBytes = 0
        /// Values taken in so far, and that count at the last heartbeat.
        var accepted: UInt64 = 0
        var acceptedAtHeartbeat: UInt64 = 0
    }

    /// Everything to do outside the lock after a transition.
    private struct Wake {
        var consumer: Consumer?
        var consumerResult: Result<Element?, any Error> = .success(nil)
        var senders: [CheckedContinuation<Bool, Never>] = []
        var sendersResult = true
        var handlers: [@Sendable () -> Void] = []
        var released: [Entry] = []

        func run() {
            consumer?.resume(with: consumerResult)
            for sender in senders { sender.resume(returning: sendersResult) }
            for handler in handlers { handler() }
        }
    }

    private enum SendStep {
        case done(Bool)
        case wait
    }

    private let policy: Policy
    private let state = Locked(State())
    /// How a value's bytes are counted, for a channel with a byte limit.
    private let weigh: (@Sendable (Element) -> Int)?
    /// The most bytes buffered at once; past it the policy applies as when full.
    private let byteLimit: Int
    /// Bytes shared with other channels: a value that does not fit is
    /// treated as one that does not fit the buffer.
    private let budget: ByteBudget?

    /// An open channel with `policy`.
    public init(policy: Policy) {
        self.policy = policy
        weigh = nil
        byteLimit = .max
        budget = nil
    }

    /// An open channel with `policy` that also counts the bytes it buffers
    /// (as `weigh` says): past `byteLimit`, or when `budget` has no room
    /// for a value, the policy applies as when the buffer is full.
    public init(policy: Policy, byteLimit: Int, budget: ByteBudget?, weigh: @escaping @Sendable (Element) -> Int) {
        self.policy = policy
        self.weigh = weigh
        self.byteLimit = max(0, byteLimit)
        self.budget = budget
    }

    /// Bytes buffered now, for a channel that counts them.
    public var bufferedBytes: Int { state.withLock { $0.bufferedBytes } }

    /// Runs `handler` once the channel has terminated (at once if it already has).
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if case .terminated = state.phase { return true }
            state.onTermination.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Whether the channel has terminated.
    public var isTerminated: Bool {
        state.withLock { if case .terminated = $0.phase { true } else { false } }
    }

    /// Unread values right now.
    public var bufferedCount: Int { state.withLock { $0.buffer.count } }

    /// Values dropped by the `dropOldest` policy.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    // MARK: - Producer

    /// Sends `value`, waiting for room under the `backpressure` policy.
    /// Returns `false` (the value is dropped) once the channel is finishing
    /// or terminated, so a producer loop knows to stop.
    public func send(_ value: Element) async -> Bool {
        while true {
            var wake = Wake()
            let step = state.withLock { state -> SendStep in
                guard case .open = state.phase else { return .done(false) }
                if case .backpressure = policy, state.buffer.count >= policy.capacity, state.consumer == nil {
                    return .wait
                }
                return .done(accept(Entry(value: value, key: nil, cost: weigh?(value) ?? 0), into: &state, wake: &wake))
            }
            wake.run()
            switch step {
            case .done(let accepted): return accepted
            case .wait:
                let room = await waitForRoom()
                if !room { return false }
            }
        }
    }

    /// Waits until the buffer has room (or a consumer waits), so a producer
    /// can take a value out of its source only when it can be sent at once:
    /// a slow consumer then leaves values in their source, where they can
    /// coalesce. Returns `false` once the channel is finishing or terminated.
    public func waitForRoom() async -> Bool {
        await withCheckedContinuation { (sender: CheckedContinuation<Bool, Never>) in
            let decided = state.withLock { state -> Bool? in
                guard case .open = state.phase else { return false }
                if state.buffer.count < policy.capacity || state.consumer != nil { return true }
                state.senders.append(sender)
                return nil
            }
            if let decided { sender.resume(returning: decided) }
        }
    }

    /// Offers `value` without waiting. A value with a `key` replaces an unread
    /// value with the same key (it moves to the end, keeping arrival order).
    /// Returns whether the value was taken: `false` once finishing or
    /// terminated, or when full under `backpressure`.
    @discardableResult
    public func offer(_ value: Element, key: String? = nil) -> Bool {
        offerValue(value, key: key)
    }

    fileprivate func offerValue(_ value: Element, key: String?) -> Bool {
        // The usual offer (open, room in the buffer, no unread value to
        // replace) leaves only the consumer to wake outside the lock: no
        // `Wake` is made for it (see `poll(registering:sleeping:)`).
        var consumer: Consumer?
        let cost = weigh?(value) ?? 0
        let usual = state.withLock { state -> Bool? in
            guard case .open = state.phase else { return false }
            if let key, state.buffer.contains(where: { $0.key == key }) { return nil }
            guard state.buffer.count < policy.capacity || state.consumer != nil else { return nil }
            if case .task = state.consumer {
                state.accepted &+= 1
                consumer = state.consumer
                state.consumer = nil
                return true
            }
            guard reserve(cost, in: &state) else { return nil }
            state.accepted &+= 1
            consumer = state.consumer
            state.consumer = nil
            state.buffer.append(Entry(value: value, key: key, cost: cost))
            return true
        }
        consumer?.resume(with: .success(value))
        if let usual { return usual }
        var wake = Wake()
        let accepted = state.withLock { state -> Bool in
            guard case .open = state.phase else { return false }
            if let key, let index = state.buffer.firstIndex(where: { $0.key == key }) {
                wake.released.append(removeEntry(at: index, from: &state))
            }
            if case .backpressure = policy, state.buffer.count >= policy.capacity, state.consumer == nil { return false }
            return accept(Entry(value: value, key: key, cost: cost), into: &state, wake: &wake)
        }
        wake.run()
        return accepted
    }

    /// Offers `value` only when the consumer is waiting on an empty buffer
    /// (a heartbeat: worth sending only when there is nothing else to send).
    @discardableResult
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    public func offerIfIdle(_ value: Element) -> Bool {
        var wake = Wake()
        let accepted = state.withLock { state -> Bool in
            guard case .open = state.phase, state.buffer.isEmpty, state.consumer != nil else { return false }
            return accept(Entry(value: value, key: nil, cost: weigh?(value) ?? 0), into: &state, wake: &wake)
        }
        wake.run()
        return accepted
    }

    /// A heartbeat: offers `value` only when the consumer waits on an empty
    /// buffer and nothing else was offered since the last heartbeat. A
    /// stream that carried an event within the interval needs no comment to
    /// stay open, and ten thousand live streams are spared as many sends.
    @discardableResult
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    func offerHeartbeat(_ value: Element) -> Bool {
        var wake = Wake()
        let accepted = state.withLock { state -> Bool in
            defer { state.acceptedAtHeartbeat = state.accepted }
            guard case .open = state.phase, state.buffer.isEmpty, state.consumer != nil,
                state.accepted == state.acceptedAtHeartbeat
            else { return false }
            return accept(Entry(value: value, key: nil, cost: weigh?(value) ?? 0), into: &state, wake: &wake)
        }
        wake.run()
        return accepted
    }

    /// Counts `cost` more bytes as buffered, if they fit the channel's limit
    /// and its budget. Called holding the lock.
    private func reserve(_ cost: Int, in state: inout State) -> Bool {
        guard cost > 0 else { return true }
        guard state.bufferedBytes + cost <= byteLimit, budget?.reserve(cost) ?? true else { return false }
        state.bufferedBytes += cost
        return true
    }

    /// Takes the buffered entry at `index` out, with its bytes. Called
    /// holding the lock.
    private func removeEntry(at index: Int, from state: inout State) -> Entry {
        let entry = state.buffer.remove(at: index)
        unreserve(entry.cost, in: &state)
        return entry
    }

    private func unreserve(_ cost: Int, in state: inout State) {
        guard cost > 0 else { return }
        state.bufferedBytes -= cost
        budget?.release(cost)
    }

    /// Puts `entry` in the buffer (or in the waiting consumer's hands),
    /// applying the policy when full — of values, or of bytes. Called
    /// holding the lock.
    private func accept(_ entry: Entry, into state: inout State, wake: inout Wake) -> Bool {
        state.accepted &+= 1
        if let consumer = state.consumer {
            state.consumer = nil
            wake.consumer = consumer
            if case .task = consumer {
                wake.consumerResult = .success(entry.value)
                return true
            }
            state.buffer.append(entry)
            return true
        }
        if state.buffer.count >= policy.capacity {
            switch policy {
            case .backpressure:
                return false
            case .dropOldest:
                wake.released.append(removeEntry(at: 0, from: &state))
                state.dropped += 1
            case .finishWhenFull:
                state.phase = .finishing(nil)
                return false
            }
        }
        while !reserve(entry.cost, in: &state) {
            // No room for its bytes: as when the buffer is full, except that
            // a finishing channel drops what it holds at once, since a
            // consumer this far behind may not read it for a long time.
            switch policy {
            case .dropOldest where !state.buffer.isEmpty:
                wake.released.append(removeEntry(at: 0, from: &state))
                state.dropped += 1
            case .finishWhenFull:
                end(&state, wake: &wake)
                return false
            default:
                return false
            }
        }
        state.buffer.append(entry)
        return true
    }

    /// The producer's end: no more values. The consumer reads what is
    /// buffered, then `nil` — or `error`, when given. Idempotent; ignored
    /// after ``cancel()``.
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    public func finish(throwing error: (any Error)? = nil) {
        var wake = Wake()
        state.withLock { state in
            guard case .open = state.phase else { return }
            state.phase = .finishing(error)
            wake.senders = state.senders
            wake.sendersResult = false
            state.senders.removeAll()
            guard state.buffer.isEmpty, let consumer = state.consumer else { return }
            state.consumer = nil
            if consumer.isWaker {
                // The poller comes back, finds the buffer empty and ends it.
                wake.consumer = consumer
                return
            }
            wake.consumer = consumer
            wake.consumerResult = error.map { .failure($0) } ?? .success(nil)
            terminate(&state, wake: &wake)
        }
        wake.run()
    }

    /// The consumer's end (or a producer abandoning what it buffered): drops
    /// everything buffered and terminates; a consumer waiting for the next
    /// value learns of the end. Idempotent.
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    public func cancel() {
        var wake = Wake()
        state.withLock { state in
            guard !Self.isTerminated(state) else { return }
            end(&state, wake: &wake)
        }
        wake.run()
    }

    /// Drops everything buffered and terminates, telling the consumer and
    /// any waiting sender. Called holding the lock.
    private func end(_ state: inout State, wake: inout Wake) {
        // A waiting task gets the end; a poller's waker is called, so a
        // consumer asleep (a suspended connection) wakes to find it.
        if let consumer = state.consumer {
            wake.consumer = consumer
            wake.consumerResult = .success(nil)
        }
        state.consumer = nil
        wake.senders = state.senders
        wake.sendersResult = false
        state.senders.removeAll()
        terminate(&state, wake: &wake)
    }

    /// The one transition into `terminated`. Called holding the lock.
    private func terminate(_ state: inout State, wake: inout Wake) {
        state.phase = .terminated
        wake.released += state.buffer
        state.buffer.removeAll()
        unreserve(state.bufferedBytes, in: &state)
        wake.handlers = state.onTermination
        state.onTermination.removeAll()
    }

    private static func isTerminated(_ state: State) -> Bool {
        if case .terminated = state.phase { return true }
        return false
    }

    // MARK: - Consumer

    /// The next value, waiting for one; `nil` at the end. Throws the error
    /// the producer finished with. Cancelling the waiting task cancels the
    /// channel.
    public func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (consumer: CheckedContinuation<Element?, any Error>) in
                var wake = Wake()
                let ready = state.withLock { state -> Result<Element?, any Error>? in
                    switch take(&state, wake: &wake) {
                    case .value(let value): return .success(value)
                    case .end: return .success(nil)
                    case .failed(let error): return .failure(error)
                    case .pending:
                        state.consumer = .task(consumer)
                        return nil
                    }
                }
                wake.run()
                if let ready { consumer.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next value if one is ready; otherwise registers `waker`, which is
    /// called (once, from any thread) when a value arrives or the channel
    /// ends — then poll again. For consumers that cannot await (libmicrohttpd's
    /// content reader).
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    public func poll(waker: @escaping @Sendable () -> Void) -> Poll {
        poll(registering: .waker(waker))
    }

    /// ``poll(waker:)`` with a waker object, registered without allocating,
    /// for a consumer that must fall asleep before it can be woken: when
    /// nothing is ready, `sleep` runs holding the channel's lock as the
    /// waker is registered, so the waker (called outside the lock) always
    /// finds the consumer asleep. libmicrohttpd's content reader suspends its
    /// connection there, and the waker resumes it.
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    func poll(waking waker: any ChannelWaker, sleeping sleep: () -> Void) -> Poll {
        poll(registering: .wakerObject(waker), sleeping: sleep)
    }

    private func poll(registering consumer: Consumer, sleeping sleep: () -> Void = {}) -> Poll {
        // An open channel (every poll of a live stream): a value, or sleep.
        // Nothing to do outside the lock but let one waiting sender go, so
        // no `Wake` is made (its generic destroy cost every event a lookup
        // of its type's metadata).
        var sender: CheckedContinuation<Bool, Never>?
        let open = state.withLock { state -> Poll? in
            guard case .open = state.phase else { return nil }
            if let value = takeBuffered(&state, sender: &sender) { return .value(value) }
            sleep()
            state.consumer = consumer
            return .pending
        }
        sender?.resume(returning: true)
        if let open { return open }
        // Finishing or terminated: what `take` does, ending a drained channel.
        var wake = Wake()
        let result = state.withLock { state -> Poll in
            let result = take(&state, wake: &wake)
            if case .pending = result {
                sleep()
                state.consumer = consumer
            }
            return result
        }
        wake.run()
        return result
    }

    /// Takes the next value, or ends a drained finishing channel. Called
    /// holding the lock.
    private func take(_ state: inout State, wake: inout Wake) -> Poll {
        switch state.phase {
        case .terminated:
            return .end
        case .open, .finishing:
            var sender: CheckedContinuation<Bool, Never>?
            if let value = takeBuffered(&state, sender: &sender) {
                if let sender { wake.senders = [sender] }
                return .value(value)
            }
            if case .finishing(let error) = state.phase {
                terminate(&state, wake: &wake)
                return error.map { .failed($0) } ?? .end
            }
            return .pending
        }
    }

    /// The oldest buffered value, if any; a sender waiting for room is
    /// handed out in `sender`, to be let go outside the lock. Called holding
    /// the lock.
    private func takeBuffered(_ state: inout State, sender: inout CheckedContinuation<Bool, Never>?) -> Element? {
        guard !state.buffer.isEmpty else { return nil }
        if !state.senders.isEmpty { sender = state.senders.removeFirst() }
        return removeEntry(at: 0, from: &state).value
    }
}

extension Channel where Element == [UInt8] {
    /// ``offer(_:key:)-(Element,_)`` compiled for byte arrays, the element of
    /// streamed bodies: called from another module, the generic method would
    /// first work out the metadata of the types it might need, every time.
    @discardableResult
    public func offer(_ value: [UInt8], key: String? = nil) -> Bool {
        offerValue(value, key: key)
    }
}

extension Channel where Element == EventFrame {
    /// ``offer(_:key:)-(Element,_)`` compiled for event frames, the element of
    /// every tab's stream: a tab's patches reach it from another module, for
    /// every patch of every tab.
    @discardableResult
    public func offer(_ value: EventFrame, key: String? = nil) -> Bool {
        offerValue(value, key: key)
    }
}

/// What a poller of a ``Channel`` is woken through when it registers an
/// object rather than a closure (napkin's body pump does, once per event).
protocol ChannelWaker: AnyObject, Sendable {
    /// Something arrived, or the channel ended: poll again.
    func wake()
}
