import NapkinHTTP

extension NapkinConfiguration {
    /// Request ids for an ``/NapkinHTTP/AccessLog``: an `X-Request-ID` passed on by one
    /// of ``trustedProxies`` is kept, every other request gets a new one.
    ///
    /// ```swift
    /// router.use(AccessLog(requestIDs: configuration.requestIDs))
    /// ```
    public var requestIDs: RequestIDs {
        RequestIDs { [self] request in OriginCheck.isTrustedProxy(request.peer, self) }
    }
}
