import NapkinHTTP

/// Adds napkin's security headers to every response: the CSP, no MIME
/// sniffing, a same-origin referrer policy, and no framing.
struct SecurityHeaders: Middleware {
    let contentSecurityPolicy: String

    func respond(to request: Request, next: HTTPHandler) async throws -> Response {
        var response = try await next(request)
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        return response
    }
}
