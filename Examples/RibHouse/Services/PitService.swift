import Foundation
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
    /// The current pit as JSON, encoded once per change. A pthread lock
    /// (napkin's `Locked`), which ThreadSanitizer can see: request threads
    /// read it while the actor writes it.
    private nonisolated let json: Locked<[UInt8]>

    /// A pit that changes every `interval` once ``start()`` is called.
    init(interval: Duration = .seconds(2), simulator: PitSimulator = PitSimulator()) {
        self.interval = interval
        self.simulator = simulator
        let opening = PitSimulator.opening()
        pit = StateBroadcaster(opening)
        json = Locked(Self.encode(opening))
    }

    /// The pit now as `GET /api/pit` sends it: `JSONEncoder`'s bytes for
    /// ``current``, encoded once per tick rather than once per request, and
    /// read without waiting on the actor.
    nonisolated var currentJSON: [UInt8] {
        json.withLock { $0 }
    }

    /// `state` as `JSONEncoder` encodes it, keys sorted (so the bytes are
    /// the same for the same pit: on Linux the default key order varies
    /// from one encode to the next).
    static func encode(_ state: PitState) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? Array(encoder.encode(state))) ?? Array("{}".utf8)
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
        let encoded = Self.encode(next)
        json.withLock { $0 = encoded }
        await pit.send(next)
    }
}
