@_spi(Napkin) import NapkinSupport
import napkin

/// An app-wide ``/napkin/StateBroadcaster`` bound to a channel of a ``MessageBus``:
/// a value sent in any process becomes the state in every process, and the
/// bus keeps the latest one, so a process that starts later (or
/// reconnects) begins from it.
///
/// ```swift
/// let pit = SharedState(channel: "pit", bus: bus, initial: PitState.opening)
/// await pit.start()                   // replays the latest pit, if any
/// try await pit.send(next)            // every process's boards
/// ```
public final class SharedState<Value: Codable & Sendable>: Sendable {
    /// The local broadcaster napkins subscribe to.
    public let broadcaster: StateBroadcaster<Value>
    private let channel: String
    private let bus: any MessageBus
    private let feeder = TaskSlot()
    /// The stamp of the value applied last: an older one never replaces it.
    private let applied = Locked<Double>(0)

    private let origin: String
    private let lease: LeasedWork?
    private let didChange: (@Sendable (Value) -> Void)?

    /// A state starting at `initial` until the bus has a later one.
    /// `didChange` sees each new state, from this process or another, before
    /// the subscribers do (to keep a derived form, such as its JSON, current).
    ///
    /// A state that only the holder of a lease sends (a ticking simulator's)
    /// names that ``LeasedWork`` as `lease`: then a state from the bus is
    /// taken only when it was sent by whoever holds the lease now (the
    /// latest kept value, when a process starts, also while nobody does),
    /// so a message published by anyone else is dropped.
    public convenience init(
        channel: String, bus: any MessageBus, initial: Value, lease: LeasedWork? = nil,
        didChange: (@Sendable (Value) -> Void)? = nil
    ) {
        self.init(channel: channel, bus: bus, initial: initial, lease: lease, origin: ProcessInstance.id, didChange: didChange)
    }

    /// A binding speaking for the instance `origin` instead of this
    /// process: for tests and benchmarks that play several processes in one.
    public init(
        channel: String, bus: any MessageBus, initial: Value, lease: LeasedWork? = nil, origin: String,
        didChange: (@Sendable (Value) -> Void)? = nil
    ) {
        self.channel = channel
        self.bus = bus
        self.origin = origin
        self.lease = lease
        self.didChange = didChange
        broadcaster = StateBroadcaster(initial)
    }

    /// Starts following the channel: first the latest value the bus keeps,
    /// then every change. Returns once subscribed and caught up. Calling it
    /// again before ``stop()`` does nothing.
    public func start() async {
        guard feeder.claim() else { return }
        let deliveries = await bus.subscribe(to: "state." + channel)
        await catchUp()
        let task = Task { [self] in
            for await delivery in deliveries {
                switch delivery {
                case .message(let payload):
                    if let envelope = BusEnvelope<Value>.decode(payload, channel: "state." + channel),
                        await isFromHolder(envelope, catchingUp: false)
                    {
                        await apply(envelope)
                    }
                case .reconnected:
                    await catchUp()
                }
            }
        }
        feeder.hold(task)
    }

    /// Makes `value` the state here, then in every process (and keeps it on
    /// the bus for processes that start later). Throws when the bus cannot
    /// be reached (this process has the value by then).
    public func send(_ value: Value) async throws {
        let envelope = BusEnvelope(value, origin: origin, holder: lease?.holder)
        await apply(envelope)
        try await bus.publishLatest(try envelope.encoded, to: "state." + channel)
    }

    /// Stops following the channel.
    public func stop() {
        feeder.stop()
    }

    private func catchUp() async {
        guard let payload = try? await bus.latest(on: "state." + channel),
            let envelope = BusEnvelope<Value>.decode(payload, channel: "state." + channel),
            await isFromHolder(envelope, catchingUp: true)
        else { return }
        await apply(envelope)
    }

    /// Whether `envelope` may be applied: always without a lease; with one,
    /// when its holder holds the lease now (or, for the kept value read when
    /// catching up, nobody does: the last holder left it).
    private func isFromHolder(_ envelope: BusEnvelope<Value>, catchingUp: Bool) async -> Bool {
        guard let lease else { return true }
        let current = await lease.currentHolder()
        if let holder = envelope.holder, holder == current || (catchingUp && current == nil) { return true }
        RefusedInput.report("bus message on state.\(channel)", "it was not sent by the lease's holder")
        return false
    }

    private func apply(_ envelope: BusEnvelope<Value>) async {
        let newer = applied.withLock { applied in
            guard envelope.stamp > applied else { return false }
            applied = envelope.stamp
            return true
        }
        guard newer else { return }
        didChange?(envelope.value)
        await broadcaster.send(envelope.value)
    }
}
