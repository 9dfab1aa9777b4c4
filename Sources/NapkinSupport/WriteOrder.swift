/// Keys in the order they were written, oldest first, each with the stamp
/// of its write (a counter, a deadline). Writing a key again appends it;
/// its older place stays behind and is skipped when it comes up, since
/// the owner's table no longer holds that stamp for the key. A write is
/// O(1) and taking the oldest amortized O(1), with no linked list: the
/// recency order of a bounded table (rate limits, records, waiting
/// connections, retired ids).
@_spi(Napkin) public struct WriteOrder<Key: Hashable, Stamp: Equatable> {
    private var writes: [(key: Key, stamp: Stamp)] = []
    private var head = 0

    /// An empty order.
    public init() {}

    /// Places written and not yet taken, stale ones included.
    public var count: Int { writes.count - head }

    /// `key` was written with `stamp`: it is now the newest.
    public mutating func append(_ key: Key, stamp: Stamp) {
        writes.append((key, stamp))
    }

    /// The oldest place `isCurrent` accepts, left where it is; the stale
    /// places before it are dropped.
    public mutating func oldest(isCurrent: (Key, Stamp) -> Bool) -> (key: Key, stamp: Stamp)? {
        while head < writes.count {
            let write = writes[head]
            if isCurrent(write.key, write.stamp) { return write }
            head += 1
        }
        compact()
        return nil
    }

    /// Takes out the oldest place `isCurrent` accepts (and the stale
    /// places before it).
    public mutating func removeOldest(isCurrent: (Key, Stamp) -> Bool) -> (key: Key, stamp: Stamp)? {
        guard let write = oldest(isCurrent: isCurrent) else { return nil }
        head += 1
        compact()
        return write
    }

    /// Keeps only the places `isCurrent` accepts: for keys written again
    /// and again, whose stale places would otherwise pile up.
    public mutating func keep(isCurrent: (Key, Stamp) -> Bool) {
        writes = writes[head...].filter { isCurrent($0.key, $0.stamp) }
        head = 0
    }

    /// Drops the taken front once it is most of the array.
    private mutating func compact() {
        guard head > 1024, head * 2 > writes.count else { return }
        writes.removeFirst(head)
        head = 0
    }
}
