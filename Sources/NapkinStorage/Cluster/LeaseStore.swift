/// Named leases, held by one holder at a time across the app's processes:
/// a singleton (a ticking simulator, a scheduler) runs where its lease is
/// held, and another process takes over when the holder dies and its lease
/// expires. ``LocalLeases`` (the default) is one process.
public protocol LeaseStore: Sendable {
    /// Takes lease `name` for `holder` for `ttl` if nobody holds it;
    /// whether `holder` now holds it.
    func acquire(_ name: String, holder: String, ttl: Duration) async throws -> Bool
    /// Extends `holder`'s lease on `name` to `ttl` from now; `false` when
    /// `holder` no longer holds it (it expired, and maybe someone else took it).
    func renew(_ name: String, holder: String, ttl: Duration) async throws -> Bool
    /// Gives lease `name` up, if `holder` holds it.
    func release(_ name: String, holder: String) async throws
    /// Who holds lease `name` now; `nil` when nobody does.
    func holder(of name: String) async throws -> String?
}
