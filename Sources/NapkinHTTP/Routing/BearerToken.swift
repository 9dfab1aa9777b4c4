@_spi(Napkin) import NapkinSupport

/// A secret that opens an operator's endpoint (`/metrics`, the dashboard):
/// checked against what a request presents, in time that does not depend on
/// where the two differ.
public struct BearerToken: Sendable {
    /// The SHA-256 of the token: digests of equal length are compared.
    private let digest: [UInt8]

    /// A token of `secret`.
    public init(_ secret: String) {
        digest = SHA256.hash(Array(secret.utf8))
    }

    /// Whether `presented` is the token.
    public func matches(_ presented: some Collection<UInt8>) -> Bool {
        HMAC.equal(SHA256.hash(Array(presented)), digest)
    }

    /// Whether `request` carries the token as `Authorization: Bearer …`
    /// (the scheme in any case).
    public func admits(_ request: Request) -> Bool {
        guard let header = request.headers["Authorization"] else { return false }
        let scheme = "bearer "
        guard header.utf8.count > scheme.utf8.count,
            header.utf8.prefix(scheme.utf8.count).elementsEqual(scheme.utf8, by: { $0 | 0x20 == $1 })
        else { return false }
        return matches(header.utf8.dropFirst(scheme.utf8.count))
    }

    /// A value derived from the token for `purpose`, as hex digits: what a
    /// cookie may carry in its place, so the token itself is not stored in
    /// a browser.
    public func derived(for purpose: String) -> String {
        HMAC.sha256(key: digest, message: Array(purpose.utf8)).hexDigits
    }
}
