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
        var header = header
        header.withUTF8 { bytes in
            forEachPair(in: bytes) { name, value in
                result[String(decoding: bytes.slice(name), as: UTF8.self)] = String(decoding: bytes.slice(value), as: UTF8.self)
            }
        }
        return result
    }

    /// The value of the last cookie named `name` in one `Cookie` header, read
    /// as ``parse(header:)`` reads it, without building the dictionary.
    static func value(named name: String, inHeader header: String) -> String? {
        var header = header, name = name
        return header.withUTF8 { bytes in
            name.withUTF8 { name in
                var found: Range<Int>?
                forEachPair(in: bytes) { pairName, value in
                    if bytes.slice(pairName).elementsEqual(name) { found = value }
                }
                return found.map { String(decoding: bytes.slice($0), as: UTF8.self) }
            }
        }
    }

    /// Each `name=value` pair of a `Cookie` header with a name, as the byte
    /// ranges of its name and its value: trimmed, the value unquoted. Cut at
    /// ASCII bytes only, so each range is still whole UTF-8.
    private static func forEachPair(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>) -> Void) {
        ASCIIBytes.forEachPart(of: bytes, separatedBy: UInt8(ascii: ";")) { pair in
            guard let eq = pair.first(where: { bytes[$0] == UInt8(ascii: "=") }) else { return true }
            var value = ASCIIBytes.trimmingSpaces(eq + 1..<pair.upperBound, in: bytes)
            if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""), bytes[value.upperBound - 1] == UInt8(ascii: "\"") {
                value = value.lowerBound + 1..<value.upperBound - 1
            }
            let name = ASCIIBytes.trimmingSpaces(pair.lowerBound..<eq, in: bytes)
            if !name.isEmpty { body(name, value) }
            return true
        }
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
