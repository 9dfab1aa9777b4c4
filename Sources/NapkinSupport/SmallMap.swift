/// A map for a handful of entries, kept as one array of pairs (SPI, like
/// ``Locked``).
///
/// A view's slots, actions and regions, a tab's fragments: each holds a
/// few entries and there is one per live tab, so for ten thousand tabs the
/// hashed storage of a `Dictionary` (a table sized in powers of two, with
/// its own header) is memory for nothing. A linear search over four entries
/// is as quick as hashing the key. Order is the order of insertion.
@_spi(Napkin) public struct SmallMap<Key: Equatable, Value> {
    /// The entries, oldest first.
    public var pairs: [(key: Key, value: Value)] { storage }
    @usableFromInline var storage: [(key: Key, value: Value)] = []

    /// An empty map.
    @inlinable public init() {}

    /// The value for `key`; setting `nil` removes the entry.
    @inlinable public subscript(key: Key) -> Value? {
        get {
            for pair in storage where pair.key == key { return pair.value }
            return nil
        }
        set {
            let index = storage.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): storage[index].value = value
            case (let index?, nil): storage.remove(at: index)
            case (nil, let value?): storage.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// Removes the entry for `key`, returning its value.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let index = storage.firstIndex(where: { $0.key == key }) else { return nil }
        return storage.remove(at: index).value
    }

    /// Removes every entry, letting go of the storage.
    @inlinable public mutating func removeAll() {
        storage = []
    }

    /// The values, oldest first, read from the entries without copying
    /// them out (a page view walks every view's slots several times).
    @inlinable public var values: LazyMapSequence<[(key: Key, value: Value)], Value> { storage.lazy.map(\.value) }

    /// The number of entries.
    @inlinable public var count: Int { storage.count }

    /// Whether there are no entries.
    @inlinable public var isEmpty: Bool { storage.isEmpty }
}

extension SmallMap: Sendable where Key: Sendable, Value: Sendable {}
