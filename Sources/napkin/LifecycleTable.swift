@_spi(Napkin) import NapkinSupport

/// The lifecycles of interactors that declare none (see
/// ``Interactable/lifecycle``): each found by its interactor's identity and
/// held beside it, weakly, so the table never keeps an interactor alive.
///
/// A lifecycle goes with the router that owns its interactor (``forget(_:)``),
/// or, for an interactor no router owns, once the table notices the
/// interactor gone: when its address is reused, or when a shard that has
/// doubled since its last sweep drops every entry whose interactor is gone.
/// Its deinit then cancels whatever work was still bound. Sixteen shards
/// keep interactors on many threads from meeting on one lock.
enum LifecycleTable {
    private struct Entry {
        weak var owner: AnyObject?
        let lifecycle: InteractorLifecycle
    }

    private struct Shard {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The number of entries after the last sweep: the next sweep
        /// comes when the shard has doubled since.
        var swept = 0

        /// A dictionary keeps the room it once needed: after a crowd of
        /// trees has gone, the shard moves into one its size.
        mutating func shrinkIfSparse() {
            guard entries.capacity > 256, entries.count * 4 < entries.capacity else { return }
            var smaller = [ObjectIdentifier: Entry](minimumCapacity: entries.count * 2)
            for (key, entry) in entries { smaller[key] = entry }
            entries = smaller
            swept = min(swept, entries.count)
        }
    }

    private static let shards = (0..<16).map { _ in Locked(Shard()) }

    /// The lifecycle of `owner`, made on first use.
    static func lifecycle(of owner: AnyObject) -> InteractorLifecycle {
        let id = ObjectIdentifier(owner)
        let shard = shards[id.hashValue & (shards.count - 1)]
        var gone: [Entry] = []
        let lifecycle = shard.withLock { shard -> InteractorLifecycle in
            if let entry = shard.entries[id] {
                if entry.owner === owner { return entry.lifecycle }
                // A dead interactor's address, now another's.
                gone.append(entry)
            }
            let lifecycle = InteractorLifecycle()
            shard.entries[id] = Entry(owner: owner, lifecycle: lifecycle)
            if shard.entries.count >= max(64, 2 * shard.swept) {
                for (key, entry) in shard.entries.filter({ $0.value.owner == nil }) {
                    gone.append(entry)
                    shard.entries[key] = nil
                }
                shard.swept = shard.entries.count
                shard.shrinkIfSparse()
            }
            return lifecycle
        }
        // Released outside the lock: a lifecycle's deinit ends its work.
        gone.removeAll()
        return lifecycle
    }

    /// Lets go of the lifecycle kept for `owner`, if napkin keeps one: the
    /// router that owns `owner` is going. Should `owner` be used after, it
    /// gets a new, inactive lifecycle.
    static func forget(_ owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        let shard = shards[id.hashValue & (shards.count - 1)]
        // The entry is handed out of the lock and released there: a
        // lifecycle's deinit ends its work.
        _ = shard.withLock { shard -> Entry? in
            guard let entry = shard.entries[id], entry.owner === owner else { return nil }
            shard.entries[id] = nil
            shard.shrinkIfSparse()
            return entry
        }
    }

    /// Entries held now, live or not yet swept (for tests).
    static var count: Int {
        shards.reduce(0) { total, shard in total + shard.withLock { $0.entries.count } }
    }
}
