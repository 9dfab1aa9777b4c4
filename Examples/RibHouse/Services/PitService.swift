import napkin

/// The smokers out back, shared by the whole app.
///
/// One actor and one ticking task for every session: each tick goes through
/// a `StateBroadcaster`, which fans it out to every signed-in header and Pit
/// Board (and replays the latest pit to whoever subscribes next).
actor PitService {
    private let pit: StateBroadcaster<PitState>
    private var simulator: PitSimulator
    private let interval: Duration
    private var ticker: Task<Void, Never>?

    /// A pit that changes every `interval` once ``start()`` is called.
    init(interval: Duration = .seconds(2), simulator: PitSimulator = PitSimulator()) {
        self.interval = interval
        self.simulator = simulator
        pit = StateBroadcaster(PitSimulator.opening())
    }

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

    /// Starts the ticking loop; calling it again does nothing, so the app
    /// has one loop however many sessions come and go.
    func start() {
        guard ticker == nil else { return }
        ticker = Task { [interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                await self.tick()
            }
        }
    }

    /// Stops the loop (on shutdown) and returns once it has ended, so no
    /// tick already under way can land after this.
    func stop() async {
        guard let ticker else { return }
        self.ticker = nil
        ticker.cancel()
        await ticker.value
    }

    /// Advances the pit one tick and tells every subscriber.
    func tick() async {
        let next = simulator.tick(await pit.value)
        await pit.send(next)
    }
}
