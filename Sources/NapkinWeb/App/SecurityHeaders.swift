import NapkinHTTP

/// Adds napkin's security headers to every response: the CSP, no MIME
/// sniffing, a same-origin referrer policy, and no framing.
///
/// An event stream gets only `nosniff`: the policy, the referrer policy and
/// the framing rule govern documents, and a `text/event-stream` body is
/// never one. libmicrohttpd keeps a copy of every header for as long as the
/// stream is open, so each live tab would carry them for nothing.
struct SecurityHeaders: Middleware {
    let contentSecurityPolicy: String

    func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        let policy = contentSecurityPolicy
        return next(request).finished { outcome in
            outcome.map { response in
                var response = response
                response.headers["X-Content-Type-Options"] = "nosniff"
                guard !Self.isEventStream(response) else { return response }
                response.headers["Content-Security-Policy"] = policy
                response.headers["Referrer-Policy"] = "same-origin"
                response.headers["X-Frame-Options"] = "DENY"
                return response
            }
        }
    }

    static func isEventStream(_ response: Response) -> Bool {
        response.headers["Content-Type"]?.hasPrefix("text/event-stream") ?? false
    }
}
