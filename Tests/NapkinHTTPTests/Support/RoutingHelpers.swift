@testable import NapkinHTTP

/// Middleware that stamps `X-Stamp: 1` on every answer on its way out, as
/// napkin's security headers do, with or without the asynchronous chain.
struct Stamp: FastPathMiddleware {
    func respond(to request: Request, next: HTTPHandler) async throws -> Response {
        finish(request, try await next(request), startedAt: .now)
    }

    func finish(_ request: Request, _ response: Response, startedAt start: ContinuousClock.Instant) -> Response {
        var response = response
        response.headers["X-Stamp"] = "1"
        return response
    }
}

/// A response's body as text; `<stream>` for a streamed one.
func bodyText(_ response: Response) -> String {
    if case .bytes(let b) = response.body { return String(decoding: b, as: UTF8.self) }
    return "<stream>"
}
