/// The name and type of a value a session keeps in its record:
///
/// ```swift
/// extension SessionKey where Value == User {
///     static let user = SessionKey("user")
/// }
/// ```
public struct SessionKey<Value: Codable & Sendable>: Sendable {
    /// The key in the session record.
    public let name: String

    /// A key named `name`.
    public init(_ name: String) {
        self.name = name
    }
}
