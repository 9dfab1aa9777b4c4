@_spi(Napkin) import NapkinSupport
import napkin

/// A message bus within one process: the default. Subscribers get what is
/// published in this process only; nothing is ever missed, so it never
/// yields ``BusDelivery/reconnected``.
public final class LocalBus: MessageBus {
    private struct State {
        var subscribers: [String: [UInt64: AsyncStream<BusDelivery>.Continuation]] = [:]
        var latest: [String: [UInt8]] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// An empty bus.
    public init() {}

    /// Hands `payload` to this process's subscribers of `channel`. Never throws.
    public func publish(_ payload: [UInt8], to channel: String) async throws {
        let subscribers = state.withLock { Array(($0.subscribers[channel] ?? [:]).values) }
        for subscriber in subscribers { subscriber.yield(.message(payload)) }
    }

    /// Keeps `payload` as `channel`'s latest value in memory, then publishes
    /// it. Never throws.
    public func publishLatest(_ payload: [UInt8], to channel: String) async throws {
        state.withLock { $0.latest[channel] = payload }
        try await publish(payload, to: channel)
    }

    /// The last payload ``publishLatest(_:to:)`` kept for `channel` in this
    /// process, if any. Never throws.
    public func latest(on channel: String) async throws -> [UInt8]? {
        state.withLock { $0.latest[channel] }
    }

    /// What this process publishes on `channel` from now on. A subscriber
    /// that falls more than 1,024 messages behind loses the oldest.
    public func subscribe(to channel: String) async -> AsyncStream<BusDelivery> {
        let (stream, continuation) = AsyncStream<BusDelivery>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[channel, default: [:]][state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [state] _ in
            state.withLock { $0.subscribers[channel]?[id] = nil }
        }
        return stream
    }
}
