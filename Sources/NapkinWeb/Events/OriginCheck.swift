import NapkinHTTP

/// Whether a form post's `Origin` is the app itself.
///
/// The app's origin is, in order: the configured
/// ``NapkinConfiguration/publicOrigin``; else, from a configured trusted
/// proxy, `X-Forwarded-Proto` and `X-Forwarded-Host`; else the `Host` the
/// request was sent to (either scheme).
enum OriginCheck {
    static func accepts(_ origin: String, request: Request, configuration: NapkinConfiguration) -> Bool {
        let origin = origin.lowercased()
        if let publicOrigin = configuration.publicOrigin {
            return origin == normalized(publicOrigin)
        }
        if isTrustedProxy(request.peer, configuration), let host = firstValue(request.headers["X-Forwarded-Host"]) {
            let scheme = firstValue(request.headers["X-Forwarded-Proto"])?.lowercased() ?? "http"
            return origin == "\(scheme)://\(host.lowercased())"
        }
        return isSameOrigin(origin, host: request.headers["Host"])
    }

    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let schemeEnd = origin.range(of: "://") else { return false }
        let scheme = origin[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()
    }

    /// `https://Example.org/` as browsers send it in `Origin`: lowercased, no path.
    static func normalized(_ origin: String) -> String {
        var origin = origin.lowercased()
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// Whether `peer` (`address:port`, `[v6]:port`) is a configured proxy.
    static func isTrustedProxy(_ peer: String?, _ configuration: NapkinConfiguration) -> Bool {
        guard let peer, !configuration.trustedProxies.isEmpty else { return false }
        return configuration.trustedProxies.contains(NapkinConfiguration.address(of: peer))
    }

    /// The first of a comma-separated list (the client-most proxy's value).
    private static func firstValue(_ field: String?) -> String? {
        guard let field else { return nil }
        let first = field.split(separator: ",", maxSplits: 1).first?.filter { $0 != " " && $0 != "\t" } ?? ""
        return first.isEmpty ? nil : first
    }
}
