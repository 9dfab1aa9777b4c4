import NapkinWeb

/// The smokers out back, shared by the whole app — and by every process of
/// it.
///
/// One ticking loop for the whole deployment: it runs where the `pit` lease
/// is held (`LeasedWork`), and each tick goes through a `SharedState`, whose
/// `StateBroadcaster` fans it out to every signed-in header and Pit Board of
/// every process (and replays the latest pit to whoever subscribes next, or
/// starts later). When the process running the loop dies, another takes the
/// lease within a few seconds and the pit keeps ticking from where it was.
actor PitService {
    private let shared: SharedState<PitState>
    private let ticking: LeasedWork
    private var simulator: PitSimulator
    private let interval: Duration
    /// The pit now as `GET /api/pit` sends it: encoded once per tick rather
    /// than once per request, and read without waiting on the actor.
    nonisolated let json: JSONSnapshot<PitState>

    /// Whether this process holds the pit's lease, and so moves the pit.
    nonisolated var holdsLease: Bool { ticking.isHolding }

    /// A pit that changes every `interval` once ``start()`` is called,
    /// shared over `bus`, ticked where the lease in `leases` is held.
    init(
        interval: Duration = .seconds(2), simulator: PitSimulator = PitSimulator(),
        bus: any MessageBus = LocalBus(), leases: any LeaseStore = LocalLeases()
    ) {
        self.interval = interval
        self.simulator = simulator
        let opening = PitSimulator.opening()
        let json = JSONSnapshot(opening)
        self.json = json
        let ticking = LeasedWork(name: "pit", leases: leases)
        self.ticking = ticking
        // Only the loop's process moves the pit: a pit from anyone else on
        // the bus is dropped.
        shared = SharedState(channel: "pit", bus: bus, initial: opening, lease: ticking) { json.store($0) }
    }

    private var pit: StateBroadcaster<PitState> { shared.broadcaster }

    /// The pit now.
    var current: PitState {
        get async { await pit.value }
    }

    /// How many live subscriptions follow the pit: one per signed-in header
    /// and open Pit Board (tests check that a detached board lets go).
    var subscriberCount: Int {
        get async { await pit.subscriberCount }
    }

    /// The pit now, then every tick.
    func stateStream() async -> Subscription<PitState> {
        await pit.subscribe()
    }

    /// Follows the shared pit (from the latest tick any process made) and
    /// competes for the loop; calling it again does nothing, so there is
    /// one loop however many sessions come and go.
    func start() async {
        await shared.start()
        ticking.start { [interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                await self.tick()
            }
        }
    }

    /// Stops the loop (on shutdown) and returns once it has ended, so no
    /// tick already under way can land after this; another process takes
    /// the loop over at once.
    func stop() async {
        await ticking.stop()
        shared.stop()
    }

    /// Advances the pit one tick and tells every subscriber, in every process.
    func tick() async {
        let next = simulator.tick(await pit.value)
        // Without the bus the tick still reaches this process's subscribers.
        try? await shared.send(next)
    }
}
