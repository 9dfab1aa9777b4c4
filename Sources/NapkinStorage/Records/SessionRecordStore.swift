/// Where session records live: in this process by default
/// (``InMemorySessionRecords``), or in a store every process shares.
///
/// Any error means the store cannot answer now; napkin then answers `503`
/// and tries again on the next request, so nothing is silently lost.
public protocol SessionRecordStore: Sendable {
    /// The record of session `id`, or `nil` when there is none (never
    /// created, expired or deleted).
    func load(id: String) async throws -> SessionRecord?
    /// Creates or replaces `record`; it expires after `ttl` unless saved or
    /// touched again. Returns once the write is durable.
    func save(_ record: SessionRecord, ttl: Duration) async throws
    /// Extends the expiry of session `id` to `ttl` from now.
    func touch(id: String, ttl: Duration) async throws
    /// Deletes the record of session `id` (after a rotation, or a logout
    /// that ends the session).
    func delete(id: String) async throws
    /// Drops expired records now, for a store that does not expire them on
    /// its own; napkin calls it with its idle sweep. Does nothing by default.
    func removeExpired() async
    /// Whether the store answered its last request, known without a round
    /// trip (a readiness probe asks it every few seconds). `true` by default:
    /// a store in this process is always there.
    var isReachable: Bool { get }
}

extension SessionRecordStore {
    /// Does nothing: a store that expires records itself (Redis) needs no sweep.
    public func removeExpired() async {}

    /// `true`: a store in this process is always there.
    public var isReachable: Bool { true }
}
