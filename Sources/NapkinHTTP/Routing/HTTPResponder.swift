/// Anything that answers requests: a router, static files, a whole app.
///
/// The server takes one responder; composition (routers, fallbacks,
/// middleware) happens above it, so the server stays a thin bridge. A
/// responder decides how to answer when the request arrives, on the
/// server's thread, and must not block there: the ``Answer`` says whether
/// the response is at hand, main-actor work or a task.
public protocol HTTPResponder: Sendable {
    /// How `request` is answered. A thrown ``HTTPError`` in the answer
    /// becomes its status and message, any other error a `500`.
    func answer(_ request: Request) -> Answer
}

extension HTTPResponder {
    /// The response to `request`, made as the server makes it (see
    /// ``Answer/response()``): for composing responders and for tests.
    public func respond(to request: Request) async throws -> Response {
        try await answer(request).response()
    }
}

/// A route handler: a request in, a response out (or an error, mapped by middleware or the server).
public typealias HTTPHandler = @Sendable (Request) async throws -> Response

/// A route handler that is main-actor work: a page rendered from a router's
/// tree, a form post handed to it. ``HTTPRouter/onMainActor(_:_:_:)`` runs it
/// as one main-actor task.
public typealias MainActorHandler = @MainActor @Sendable (Request) async throws -> Response

/// A route handler that answers at once from what it already has (cached
/// bytes, a snapshot): it neither awaits nor throws, so ``HTTPRouter`` can answer
/// with it on the server's own thread. A route closure that neither awaits
/// nor throws is one.
public typealias ImmediateHandler = @Sendable (Request) -> Response

/// What middleware passes a request on to: the rest of the chain, which
/// says how it answers.
public typealias NextResponder = @Sendable (Request) -> Answer

/// Code that wraps every request: logging, error mapping, authentication, headers.
///
/// Middleware sees every answer, whichever its kind, and every answer the
/// server makes itself (a refused head, a body past its limit): it
/// finishes `next`'s answer with ``Answer/finished(by:)``, answers early
/// without calling `next`, or, to await something first, answers with a
/// ``Answer/task(_:)`` that awaits `next(request).response()`.
///
/// ```swift
/// struct Timing: Middleware {
///     func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
///         let start = ContinuousClock.now
///         return next(request).finished { outcome in
///             outcome.map { response in
///                 var response = response
///                 response.headers["Server-Timing"] = "app;dur=\((ContinuousClock.now - start).components.seconds)"
///                 return response
///             }
///         }
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// How `request` is answered: usually `next`'s answer, finished on the
    /// way out; or one of its own, without calling `next`.
    func answer(_ request: Request, next: @escaping NextResponder) -> Answer
}
