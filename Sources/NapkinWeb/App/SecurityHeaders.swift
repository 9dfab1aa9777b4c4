import NapkinHTTP

/// Adds napkin's security headers to every response: the CSP, no MIME
/// sniffing, a same-origin referrer policy, and no framing.
struct SecurityHeaders: Middleware {
    let contentSecurityPolicy: String

    func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        let policy = contentSecurityPolicy
        return next(request).finished { outcome in
            outcome.map { response in
                var response = response
                response.headers["Content-Security-Policy"] = policy
                response.headers["X-Content-Type-Options"] = "nosniff"
                response.headers["Referrer-Policy"] = "same-origin"
                response.headers["X-Frame-Options"] = "DENY"
                return response
            }
        }
    }
}
