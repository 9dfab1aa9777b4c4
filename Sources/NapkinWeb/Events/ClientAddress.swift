import NapkinHTTP

extension NapkinConfiguration {
    /// The address of the client that sent `request`: the connection's
    /// peer, or — when the peer is one of ``trustedProxies`` — the
    /// `X-Real-IP` it passed on. For limits per client behind a proxy.
    public func clientAddress(of request: Request) -> String? {
        let peer = request.peer.map(Self.address(of:))
        guard OriginCheck.isTrustedProxy(request.peer, self), let forwarded = request.headers["X-Real-IP"] else { return peer }
        let address = forwarded.filter { $0 != " " && $0 != "\t" }
        return address.isEmpty ? peer : address
    }

    /// `203.0.113.9` of `203.0.113.9:51234`, `2001:db8::1` of `[2001:db8::1]:443`.
    static func address(of peer: String) -> String {
        if peer.hasPrefix("["), let end = peer.firstIndex(of: "]") {
            return String(peer[peer.index(after: peer.startIndex)..<end])
        }
        if let colon = peer.lastIndex(of: ":"), peer.firstIndex(of: ":") == colon { return String(peer[..<colon]) }
        return peer
    }
}
