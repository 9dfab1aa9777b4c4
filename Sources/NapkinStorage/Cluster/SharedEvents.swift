@_spi(Napkin) import NapkinSupport
import napkin

/// An app-wide ``/napkin/EventBroadcaster`` bound to a channel of a ``MessageBus``:
/// an event sent in any process reaches the subscribers of every process.
///
/// ```swift
/// let announcements = SharedEvents<Announcement>(channel: "announcements", bus: bus)
/// await announcements.start()
/// try await announcements.send(Announcement(text: "Last call!"))   // every process's toasts
/// // napkins subscribe as always: await announcements.broadcaster.subscribe()
/// ```
///
/// The sending process delivers to its own subscribers directly (so a
/// form post still settles with its consequences applied), then publishes
/// for the others.
public final class SharedEvents<Value: Codable & Sendable>: Sendable {
    /// The local broadcaster napkins subscribe to.
    public let broadcaster: EventBroadcaster<Value>
    private let channel: String
    private let bus: any MessageBus
    private let feeder = TaskSlot()
    /// The instance this binding speaks for (one per process).
    private let origin: String

    /// Binds `broadcaster` to `channel` on `bus`; ``start()`` begins receiving.
    public convenience init(channel: String, bus: any MessageBus, broadcaster: EventBroadcaster<Value> = EventBroadcaster()) {
        self.init(channel: channel, bus: bus, broadcaster: broadcaster, origin: ProcessInstance.id)
    }

    /// A binding speaking for the instance `origin` instead of this
    /// process: for tests and benchmarks that play several processes in one.
    public init(channel: String, bus: any MessageBus, broadcaster: EventBroadcaster<Value>, origin: String) {
        self.channel = channel
        self.bus = bus
        self.broadcaster = broadcaster
        self.origin = origin
    }

    /// Starts passing other processes' events to ``broadcaster``; returns
    /// once subscribed. Calling it again before ``stop()`` does nothing.
    public func start() async {
        guard feeder.claim() else { return }
        let deliveries = await bus.subscribe(to: "events." + channel)
        let task = Task { [broadcaster, origin, channel] in
            for await delivery in deliveries {
                guard case .message(let payload) = delivery,
                    let envelope = BusEnvelope<Value>.decode(payload, channel: "events." + channel),
                    envelope.origin != origin
                else { continue }
                await broadcaster.send(envelope.value)
            }
        }
        feeder.hold(task)
    }

    /// Sends `value` to this process's subscribers, then to every other
    /// process's. Throws when the bus cannot be reached (the local
    /// subscribers have it by then).
    public func send(_ value: Value) async throws {
        await broadcaster.send(value)
        try await bus.publish(try BusEnvelope(value, origin: origin).encoded, to: "events." + channel)
    }

    /// Stops receiving.
    public func stop() {
        feeder.stop()
    }
}
