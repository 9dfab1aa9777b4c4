/// Whether a request's `Origin` is the app itself, by comparing its host
/// and port with the `Host` the request was sent to.
enum OriginCheck {
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let schemeEnd = origin.range(of: "://") else { return false }
        let scheme = origin[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()
    }
}
