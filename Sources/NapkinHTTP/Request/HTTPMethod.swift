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

    /// The method token, as sent (`GET`).
    public var description: String { rawValue }

    /// `GET`: read a resource (a router answers `HEAD` with its `GET` routes).
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: a `GET` without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: submit a form or create a resource.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what a resource allows.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
