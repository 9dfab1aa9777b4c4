/// A record read back from a shared store is input like any request: one
/// that another writer could have made (anyone who reaches the store) is
/// checked before napkin trusts it with a session.
extension SessionRecord {
    /// The most values a record holds.
    public static let maxValues = 64
    /// The most bytes of a value's name.
    public static let maxNameBytes = 128
    /// The most bytes of all the values' names and JSON together.
    public static let maxValueBytes = 32 * 1024

    /// Why this record cannot be taken from a store (its CSRF token is not
    /// one napkin makes, or its values are too many or too large); `nil`
    /// when it can.
    public var defect: String? {
        guard SecureToken.isWellFormed(csrfToken) else { return "its CSRF token is not a well-formed token" }
        return valuesDefect
    }

    /// Why this record's values are more than a record may hold, or `nil`.
    var valuesDefect: String? {
        guard values.count <= Self.maxValues else { return "it holds more than \(Self.maxValues) values" }
        var bytes = 0
        for (name, json) in values {
            guard !name.isEmpty, name.utf8.count <= Self.maxNameBytes else { return "a value's name is empty or too long" }
            bytes += name.utf8.count + json.utf8.count
        }
        guard bytes <= Self.maxValueBytes else { return "its values are larger than \(Self.maxValueBytes) bytes" }
        return nil
    }
}
