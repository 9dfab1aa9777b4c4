#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An ordered list of header fields with case-insensitive names.
///
/// Order and repetition are kept (several `Set-Cookie` fields must stay several
/// fields), while lookups ignore case as RFC 9110 requires.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field as it will be sent or as it was received.
    public typealias Element = (name: String, value: String)

    private var fields: [Element] = []

    /// An empty header list.
    public init() {}

    /// Headers from a literal, `["Content-Type": "text/plain"]`, in the
    /// order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        // A response's literal is its first field or two; napkin's and the
        // app's middleware add more, so there is room for eight from the start.
        fields.reserveCapacity(Swift.max(8, elements.count))
        for (name, value) in elements { fields.append((name: name, value: value)) }
    }

    /// The first value for `name`; setting replaces every field of that name, and `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            for field in fields where HTTPHeaders.same(field.name, name) { return field.value }
            return nil
        }
        set {
            if contains(name) { remove(name: name) }
            if let newValue { add(name: name, value: newValue) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.same($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        // A response gathers a few fields one by one (its type, then the
        // middleware's): room for eight at once instead of growing 1, 2, 4, 8.
        if fields.count == fields.capacity { fields.reserveCapacity(Swift.max(8, fields.count * 2)) }
        fields.append((name: name, value: value))
    }

    /// Sets each of `fields`: fields already present under any of their
    /// names are removed, then `fields` are appended in order. One pass,
    /// for middleware that stamps the same few fields on every response.
    public mutating func set(_ fields: [Element]) {
        if self.fields.contains(where: { field in fields.contains { HTTPHeaders.same($0.name, field.name) } }) {
            self.fields.removeAll { field in fields.contains { HTTPHeaders.same($0.name, field.name) } }
        }
        self.fields.reserveCapacity(self.fields.count + fields.count)
        self.fields += fields
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { HTTPHeaders.same($0.name, name) }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPHeaders.same($0.name, name) }
    }

    /// Whether `other` has the same fields, in the same order, byte for byte.
    func sameFields(as other: HTTPHeaders) -> Bool {
        guard fields.count == other.fields.count else { return false }
        for (a, b) in zip(fields, other.fields) where !HTTPHeaders.identical(a.name, b.name) || !HTTPHeaders.identical(a.value, b.value) {
            return false
        }
        return true
    }

    /// Byte-for-byte equality (`==` on strings also equates canonically
    /// equivalent spellings, which are different bytes on the wire). Two
    /// copies of one string (a file's cached headers, a middleware's
    /// constant) share their storage and are not compared byte by byte.
    static func identical(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                x.baseAddress == y.baseAddress || x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The fields in order, as `(name, value)` pairs.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison without allocating lowercased copies.
    static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in ASCIIBytes.equalIgnoringCase(x, y) }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8) { ASCIIBytes.lowercased($0) == ASCIIBytes.lowercased($1) }
    }
}
