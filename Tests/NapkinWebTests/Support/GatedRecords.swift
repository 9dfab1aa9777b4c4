import NapkinWeb
@_spi(Napkin) import NapkinSupport

/// Session records in memory whose deletes wait at a gate the test opens,
/// and say when one has started: a rotation caught half-written.
final class GatedRecords: SessionRecordStore {
    private let records = InMemorySessionRecords()
    private let state = Locked(State())

    private struct State {
        var closed = true
        var deleting: [CheckedContinuation<Void, Never>] = []
        var started = false
        var gate: [CheckedContinuation<Void, Never>] = []
    }

    func load(id: String) async throws -> SessionRecord? { try await records.load(id: id) }
    func save(_ record: SessionRecord, ttl: Duration) async throws { try await records.save(record, ttl: ttl) }
    func touch(id: String, ttl: Duration) async throws { try await records.touch(id: id, ttl: ttl) }

    func delete(id: String) async throws {
        await withCheckedContinuation { continuation in
            let (waiters, pass) = state.withLock { state in
                state.started = true
                let waiters = state.deleting
                state.deleting.removeAll()
                if state.closed { state.gate.append(continuation) }
                return (waiters, !state.closed)
            }
            for waiter in waiters { waiter.resume() }
            if pass { continuation.resume() }
        }
        try await records.delete(id: id)
    }

    /// Returns once a delete has started (and waits at the gate).
    func deleteStarted() async {
        await withCheckedContinuation { continuation in
            let started = state.withLock { state in
                if !state.started { state.deleting.append(continuation) }
                return state.started
            }
            if started { continuation.resume() }
        }
    }

    /// Lets every delete through, now and from now on.
    func open() {
        let waiting = state.withLock { state in
            state.closed = false
            defer { state.gate.removeAll() }
            return state.gate
        }
        for waiter in waiting { waiter.resume() }
    }
}
