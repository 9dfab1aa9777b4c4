import Foundation

/// A cookie to set on the client with `Set-Cookie`, with every attribute browsers honour.
///
/// Defaults lean safe: `Path=/` so the cookie is seen site-wide, `HttpOnly` and
/// `Secure` are opt-in flags you should usually turn on for session cookies.
public struct Cookie: Sendable, Equatable {
    /// The `SameSite` policy, which limits when browsers send the cookie cross-site.
    public enum SameSite: String, Sendable {
        /// Sent on top-level navigations from other sites, not on their
        /// posts or subresource requests: napkin's session cookie.
        case lax = "Lax"
        /// Sent only on requests that start on this site.
        case strict = "Strict"
        /// Sent on every request, cross-site too; browsers require `Secure` with it.
        case none = "None"
    }

    /// The cookie name.
    public var name: String
    /// The cookie value, sent as is (encode it if it may contain `;`, `,` or spaces).
    public var value: String
    /// The path prefix the browser sends the cookie for; `/` by default.
    public var path: String?
    /// The domain the cookie is shared with; `nil` keeps it to the exact host (safest).
    public var domain: String?
    /// Lifetime in seconds; `0` or negative deletes the cookie.
    public var maxAge: Int?
    /// An absolute expiry, for clients that ignore `Max-Age`.
    public var expires: Date?
    /// Send only over HTTPS.
    public var secure: Bool
    /// Hide from JavaScript (`document.cookie`), which blunts XSS session theft.
    public var httpOnly: Bool
    /// Cross-site sending policy; `.lax` is the usual choice for sessions.
    public var sameSite: SameSite?

    /// A cookie; only `name` and `value` are required.
    public init(
        name: String, value: String, path: String? = "/", domain: String? = nil,
        maxAge: Int? = nil, expires: Date? = nil, secure: Bool = false,
        httpOnly: Bool = false, sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.maxAge = maxAge
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// The value of the `Set-Cookie` header field for this cookie.
    public var headerValue: String {
        var parts = ["\(name)=\(value)"]
        if let path { parts.append("Path=\(path)") }
        if let domain { parts.append("Domain=\(domain)") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if let expires { parts.append("Expires=\(HTTPDate.format(expires.timeIntervalSince1970))") }
        if secure { parts.append("Secure") }
        if httpOnly { parts.append("HttpOnly") }
        if let sameSite { parts.append("SameSite=\(sameSite.rawValue)") }
        return parts.joined(separator: "; ")
    }

    /// Parses a `Cookie` request header (`a=1; b=2`) into name → value; the last duplicate wins.
    ///
    /// Works on the header's bytes, as browsers and proxies do (RFC 6265 §5.4): as
    /// Characters, a `;` or `=` followed by a combining mark would stop being a
    /// separator, and `a=1;\u{301}b=2` would read as one cookie where they see two.
    static func parse(header: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
            guard let eq = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = trimmingWhitespace(pair[..<eq])
            let value = unquoted(trimmingWhitespace(pair[pair.index(after: eq)...]))
            // Cut at ASCII bytes only, so both halves are still whole UTF-8.
            if !name.isEmpty { result[String(Substring(name))] = String(Substring(value)) }
        }
        return result
    }

    /// The value of the last cookie named `name` in one `Cookie` header, read
    /// as ``parse(header:)`` reads it.
    static func value(named name: String, inHeader header: String) -> String? {
        var found: Substring.UTF8View?
        for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
            guard let eq = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            guard trimmingWhitespace(pair[..<eq]).elementsEqual(name.utf8) else { continue }
            found = unquoted(trimmingWhitespace(pair[pair.index(after: eq)...]))
        }
        return found.map { String(Substring($0)) }
    }

    private static func unquoted(_ value: Substring.UTF8View) -> Substring.UTF8View {
        guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") else { return value }
        return value.dropFirst().dropLast()
    }

    private static func trimmingWhitespace(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs; cheaper than Foundation's
    /// `trimmingCharacters(in:)`, which goes through UTF-16 on every request.
    var trimmingSpaces: Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}
