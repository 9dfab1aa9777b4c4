/// Fans a changing value out to any number of subscribers, each of which
/// first gets the current value — napkin's `CurrentValueSubject`.
///
/// ```swift
/// actor AuthService {
///     private let user = StateBroadcaster<User?>(nil)
///     func userStream() async -> Subscription<User?> { await user.subscribe() }
///     func login(_ name: String) async { await user.send(User(name: name)) }
/// }
/// ```
///
/// A slow subscriber costs one value: an unread value is replaced by a newer
/// one, so a subscriber always catches up to the latest state.
public actor StateBroadcaster<Value: Sendable> {
    /// The current value.
    public private(set) var value: Value

    private var fanOut = FanOut<Value>(policy: .latest)
    private let deliveryTimeout: Duration

    /// Creates a broadcaster holding `initial`. Awaited deliveries give up
    /// on a stalled subscriber after `deliveryTimeout`.
    public init(_ initial: Value, deliveryTimeout: Duration = .seconds(5)) {
        value = initial
        self.deliveryTimeout = deliveryTimeout
    }

    /// The number of live subscribers.
    public var subscriberCount: Int { fanOut.count }

    /// A fresh subscription: the current value, then every change.
    public func subscribe() -> Subscription<Value> {
        let mailbox = fanOut.add { [weak self] id in
            Task { await self?.forget(id) }
        }
        fanOut.offer(value, to: mailbox)
        return Subscription(mailbox: mailbox)
    }

    /// Sets the value and offers it to every subscriber; returns at once.
    public func send(_ newValue: Value) {
        value = newValue
        fanOut.broadcast(newValue, waiter: nil)
    }

    /// Changes the value in place with `change` and offers the result to
    /// every subscriber, in one step: no other change lands between the
    /// read and the write, as it could between awaiting ``value`` and
    /// calling ``send(_:)``. Returns the new value. A `change` that throws
    /// changes nothing.
    ///
    /// ```swift
    /// await entries.update { $0.append(entry) }
    /// ```
    @discardableResult
    public func update(_ change: @Sendable (inout Value) throws -> Void) rethrows -> Value {
        var changed = value
        try change(&changed)
        send(changed)
        return changed
    }

    /// Sets the value and returns once every current subscriber has
    /// processed it and come back for the next one — or after `timeout`
    /// (the broadcaster's `deliveryTimeout` when `nil`), reporting the stall.
    ///
    /// A subscriber that delivers from inside its own loop is not waited
    /// for: it cannot come back until this call returns.
    @discardableResult
    public func deliver(_ newValue: Value, timeout: Duration? = nil) async -> DeliveryReport {
        value = newValue
        let waiter = DeliveryWaiter()
        fanOut.broadcast(newValue, waiter: waiter)
        let report = await waiter.wait(timeout: timeout ?? deliveryTimeout)
        if !report.isComplete { StallLog.report(report, from: Self.self) }
        return report
    }

    private func forget(_ id: UInt64) {
        fanOut.remove(id)
    }
}
