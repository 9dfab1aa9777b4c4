@_spi(Napkin) import NapkinSupport
import napkin

/// Session records in this process's memory: the default store. Nothing to
/// install, and nothing survives a restart or reaches another process —
/// use a shared store (Redis) for that.
///
/// Records expire as a shared store's would, and at most `capacity` are
/// kept, so a flood of sessions cannot grow it without bound. Past the
/// capacity, the least recently saved or touched record holding no value
/// goes first: a flood of anonymous sessions never pushes out a record
/// that holds a signed-in user while an empty one is left.
public final class InMemorySessionRecords: SessionRecordStore {
    private struct Entry {
        var csrfToken: PackedToken
        var values: [String: String]
        var expires: ContinuousClock.Instant
        var stamp: UInt64

        func record(id: PackedToken) -> SessionRecord {
            SessionRecord(id: id.string, csrfToken: csrfToken.string, values: values)
        }
    }

    private struct State {
        var entries: [PackedToken: Entry] = [:]
        /// Ids in the order they were last saved or touched, records
        /// holding no value apart from records holding some.
        var empty = WriteOrder<PackedToken, UInt64>()
        var valued = WriteOrder<PackedToken, UInt64>()
        var nextStamp: UInt64 = 0
    }

    private let state = Locked(State())
    private let capacity: Int
    private let clock = ContinuousClock()

    /// A store of at most `capacity` records.
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The record of session `id`, or `nil` when there is none or it has
    /// expired (an expired record is dropped). Never throws.
    public func load(id: String) async throws -> SessionRecord? {
        let now = clock.now
        let key = PackedToken(id)
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.expires > now else {
                state.entries[key] = nil
                return nil
            }
            return entry.record(id: key)
        }
    }

    /// Keeps `record` until `ttl` from now; past the capacity, the least
    /// recently saved or touched record goes. Never throws.
    public func save(_ record: SessionRecord, ttl: Duration) async throws {
        let expires = clock.now + ttl
        state.withLock { state in
            Self.write(&state, id: PackedToken(record.id), csrfToken: PackedToken(record.csrfToken), values: record.values, expires: expires)
            Self.trim(&state, to: capacity)
        }
    }

    /// Extends the record's expiry to `ttl` from now, and makes it the most
    /// recently used; nothing happens when there is no record. Never throws.
    public func touch(id: String, ttl: Duration) async throws {
        let expires = clock.now + ttl
        let key = PackedToken(id)
        state.withLock { state in
            guard let entry = state.entries[key] else { return }
            Self.write(&state, id: key, csrfToken: entry.csrfToken, values: entry.values, expires: expires)
        }
    }

    /// Forgets the record of session `id`. Never throws.
    public func delete(id: String) async throws {
        let key = PackedToken(id)
        state.withLock { $0.entries[key] = nil }
    }

    /// Drops every expired record: napkin calls it with its idle sweep.
    public func removeExpired() async {
        let now = clock.now
        state.withLock { state in
            state.entries = state.entries.filter { $0.value.expires > now }
            let entries = state.entries
            state.empty.keep { entries[$0]?.stamp == $1 }
            state.valued.keep { entries[$0]?.stamp == $1 }
        }
    }

    /// The number of records held (expired ones included until swept or looked up).
    public var count: Int { state.withLock { $0.entries.count } }

    private static func write(
        _ state: inout State, id: PackedToken, csrfToken: PackedToken, values: [String: String], expires: ContinuousClock.Instant
    ) {
        state.nextStamp += 1
        state.entries[id] = Entry(csrfToken: csrfToken, values: values, expires: expires, stamp: state.nextStamp)
        if values.isEmpty {
            state.empty.append(id, stamp: state.nextStamp)
        } else {
            state.valued.append(id, stamp: state.nextStamp)
        }
    }

    /// Past the capacity, drops the least recently written record holding
    /// no value, and one holding values only when no empty one is left.
    private static func trim(_ state: inout State, to capacity: Int) {
        while state.entries.count > capacity,
            let oldest = state.empty.removeOldest(isCurrent: { state.entries[$0]?.stamp == $1 })
                ?? state.valued.removeOldest(isCurrent: { state.entries[$0]?.stamp == $1 })
        {
            state.entries[oldest.key] = nil
        }
    }
}
