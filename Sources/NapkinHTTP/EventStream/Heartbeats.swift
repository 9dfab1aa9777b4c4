@_spi(Napkin) import NapkinSupport

/// One shared ticker per heartbeat interval that pokes every open event
/// stream, which then sends a comment line if it has nothing else to send.
///
/// A timer task per stream would cost a task and a timer for each of 10,000
/// idle clients; one ticker per interval costs one, and stops itself when the
/// last stream of that interval closes.
final class Heartbeats: Sendable {
    static let shared = Heartbeats()

    typealias Sink = @Sendable () -> Void

    private struct Group {
        var sinks: [UInt64: Sink] = [:]
        var ticker: Task<Void, Never>?
    }

    private struct State {
        var nextID: UInt64 = 0
        var groups: [Duration: Group] = [:]
    }

    private let state = Locked(State())
    static let comment: [UInt8] = Array(":\n\n".utf8)

    /// Registers `sink` for heartbeats every `interval`; returns a token for ``remove(_:interval:)``.
    func add(_ sink: @escaping Sink, interval: Duration) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            // Mutated in place: copying the group out and back would copy
            // its table of sinks on every add, quadratic over 10,000 streams.
            state.groups[interval, default: Group()].sinks[id] = sink
            if state.groups[interval]?.ticker == nil {
                state.groups[interval]?.ticker = Task.detached { [weak self] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        guard let self, !Task.isCancelled else { return }
                        self.tick(interval)
                    }
                }
            }
            return id
        }
    }

    /// Unregisters a sink; the ticker of its interval stops when none remain.
    func remove(_ id: UInt64, interval: Duration) {
        let ticker: Task<Void, Never>? = state.withLock { state in
            guard state.groups[interval]?.sinks.removeValue(forKey: id) != nil,
                state.groups[interval]?.sinks.isEmpty == true
            else { return nil }
            return state.groups.removeValue(forKey: interval)?.ticker
        }
        ticker?.cancel()
    }

    private func tick(_ interval: Duration) {
        let sinks = state.withLock { Array($0.groups[interval]?.sinks.values ?? [:].values) }
        // One heartbeat per stream, all at once: the connections resume
        // together when the burst ends (see `StreamWakeups`).
        StreamWakeups.coalescing {
            for sink in sinks { sink() }
        }
    }
}
