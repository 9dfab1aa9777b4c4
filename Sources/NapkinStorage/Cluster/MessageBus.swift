/// Carries messages between the processes of an app: what one process
/// publishes on a channel, every process subscribed to that channel gets
/// (the publisher too). ``LocalBus`` (the default) is one process.
public protocol MessageBus: Sendable {
    /// Sends `payload` to every subscriber of `channel`, in every process.
    func publish(_ payload: [UInt8], to channel: String) async throws
    /// Keeps `payload` as `channel`'s latest value, for ``latest(on:)``,
    /// and publishes it.
    func publishLatest(_ payload: [UInt8], to channel: String) async throws
    /// The latest value kept for `channel`, if any.
    func latest(on channel: String) async throws -> [UInt8]?
    /// What is published on `channel` from now on, until the consumer stops
    /// iterating. After the bus lost its connection and got it back it
    /// yields ``BusDelivery/reconnected``: messages may have been missed,
    /// so a subscriber that keeps state reads ``latest(on:)`` again.
    func subscribe(to channel: String) async -> AsyncStream<BusDelivery>
}

/// One delivery from a ``MessageBus`` subscription.
public enum BusDelivery: Sendable, Equatable {
    /// A published payload.
    case message([UInt8])
    /// The bus reconnected; messages published meanwhile were missed.
    case reconnected
}
