/// The outcome of an awaited delivery.
public struct DeliveryReport: Sendable, Equatable {
    /// The subscribers the sender waited for.
    public let subscribers: Int
    /// Those that processed the value and came back for the next one (or
    /// went away) before the timeout.
    public let acknowledged: Int

    /// Creates a report; senders get theirs from `deliver`.
    public init(subscribers: Int, acknowledged: Int) {
        self.subscribers = subscribers
        self.acknowledged = acknowledged
    }

    /// Subscribers that had not come back when the timeout passed.
    public var stalled: Int { subscribers - acknowledged }

    /// Whether every subscriber came back in time.
    public var isComplete: Bool { stalled == 0 }
}
