/// An HTTP request method.
///
/// A struct rather than an enum so that any token a client sends (WebDAV's
/// `PROPFIND`, say) can be represented and routed, while the common methods
/// read as constants.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as it appears on the request line (uppercase by convention).
    public let rawValue: String

    /// Wraps a method token; it is uppercased, because methods are case-sensitive and
    /// every registered method is uppercase.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    public var description: String { rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
