import NapkinWeb
@_spi(Napkin) import NapkinSupport

/// Session records in memory that note every expiry extension: which
/// record, for how long.
final class TouchLog: SessionRecordStore {
    private let records = InMemorySessionRecords()
    private let touched = Locked<[(id: String, ttl: Duration)]>([])

    func load(id: String) async throws -> SessionRecord? { try await records.load(id: id) }
    func save(_ record: SessionRecord, ttl: Duration) async throws { try await records.save(record, ttl: ttl) }
    func delete(id: String) async throws { try await records.delete(id: id) }

    func touch(id: String, ttl: Duration) async throws {
        touched.withLock { $0.append((id, ttl)) }
        try await records.touch(id: id, ttl: ttl)
    }

    /// The expiries the record of `id` was extended to, in order.
    func touches(of id: String) -> [Duration] {
        touched.withLock { $0.filter { $0.id == id }.map(\.ttl) }
    }
}
