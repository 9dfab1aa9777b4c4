/// Anything that answers requests: a router, static files, a whole app.
///
/// The server takes one responder; composition (routers, fallbacks,
/// middleware) happens above it, so the server stays a thin bridge.
public protocol HTTPResponder: Sendable {
    func respond(to request: Request) async throws -> Response
}

/// A route handler: a request in, a response out (or an error, mapped by middleware or the server).
public typealias HTTPHandler = @Sendable (Request) async throws -> Response

/// Code that wraps every request: logging, error mapping, authentication, headers.
///
/// Call `next` to continue inward; return without calling it to answer early.
public protocol Middleware: Sendable {
    func respond(to request: Request, next: HTTPHandler) async throws -> Response
}
