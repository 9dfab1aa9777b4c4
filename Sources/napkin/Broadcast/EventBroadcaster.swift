/// Fans events out to the subscribers present when each is sent, with no
/// replay — napkin's `PassthroughSubject`.
///
/// Each subscriber has a bounded buffer (``bufferLimit`` events). When a
/// slow subscriber's buffer is full, its **oldest** unread event is dropped
/// to make room (counted in ``Subscription/droppedCount``): memory stays
/// bounded and the subscriber sees the most recent events.
public actor EventBroadcaster<Event: Sendable> {
    /// The most events one subscriber may have unread.
    public nonisolated let bufferLimit: Int

    private var fanOut: FanOut<Event>
    private let deliveryTimeout: Duration

    /// Creates a broadcaster whose subscribers buffer up to `bufferLimit`
    /// events. Awaited deliveries give up after `deliveryTimeout`.
    public init(bufferLimit: Int = 64, deliveryTimeout: Duration = .seconds(5)) {
        precondition(bufferLimit > 0, "bufferLimit must be positive")
        self.bufferLimit = bufferLimit
        self.deliveryTimeout = deliveryTimeout
        fanOut = FanOut(policy: .buffer(capacity: bufferLimit))
    }

    /// The number of live subscribers.
    public var subscriberCount: Int { fanOut.count }

    /// A fresh subscription to the events sent from now on.
    public func subscribe() -> Subscription<Event> {
        let mailbox = fanOut.add { [weak self] id in
            Task { await self?.forget(id) }
        }
        return Subscription(mailbox: mailbox)
    }

    /// Offers `event` to every current subscriber; returns at once.
    public func send(_ event: Event) {
        fanOut.broadcast(event, waiter: nil)
    }

    /// Offers `event` and returns once every current subscriber has
    /// processed it and come back for the next one — or after `timeout`,
    /// reporting the stall. See ``StateBroadcaster/deliver(_:timeout:)``.
    @discardableResult
    public func deliver(_ event: Event, timeout: Duration? = nil) async -> DeliveryReport {
        let waiter = DeliveryWaiter()
        fanOut.broadcast(event, waiter: waiter)
        let report = await waiter.wait(timeout: timeout ?? deliveryTimeout)
        if !report.isComplete { StallLog.report(report, from: Self.self) }
        return report
    }

    private func forget(_ id: UInt64) {
        fanOut.remove(id)
    }
}
