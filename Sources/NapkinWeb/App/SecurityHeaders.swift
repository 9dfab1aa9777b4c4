import NapkinHTTP

/// Adds napkin's security headers to every response: the CSP, no MIME
/// sniffing, a same-origin referrer policy, and no framing.
struct SecurityHeaders: FastPathMiddleware {
    let contentSecurityPolicy: String

    func respond(to request: Request, next: HTTPHandler) async throws -> Response {
        finish(request, try await next(request), startedAt: .now)
    }

    func finish(_ request: Request, _ response: Response, startedAt start: ContinuousClock.Instant) -> Response {
        var response = response
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        return response
    }
}
