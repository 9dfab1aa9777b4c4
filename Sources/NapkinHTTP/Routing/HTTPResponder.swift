/// Anything that answers requests: a router, static files, a whole app.
///
/// The server takes one responder; composition (routers, fallbacks,
/// middleware) happens above it, so the server stays a thin bridge.
public protocol HTTPResponder: Sendable {
    /// The response to `request`; a thrown ``HTTPError`` becomes its status
    /// and message, any other error a `500`.
    func respond(to request: Request) async throws -> Response

    /// The response when it can be given at once, without awaiting anything,
    /// or nil to go through ``respond(to:)``.
    ///
    /// ``HTTPServer`` asks this first, on its own thread, and sends a non-nil
    /// answer with no task and no thread hop. An answer must be what
    /// ``respond(to:)`` would have given. The default is nil.
    func respondImmediately(to request: Request) -> Response?

    /// The main-actor work that answers `request` all by itself, or nil to
    /// go through ``respond(to:)``.
    ///
    /// ``HTTPServer`` asks this on its own thread when
    /// ``respondImmediately(to:)`` gave nil. It runs the work as one
    /// main-actor task and sends its answer from there: no task waits for it
    /// on the server's thread, and the answer goes to the connection without
    /// coming back to that thread first. The work's answer, or its error
    /// (mapped as ``respond(to:)``'s would be), must be what ``respond(to:)``
    /// would have given. The default is nil.
    func mainActorWork(for request: Request) -> (@MainActor @Sendable () async throws -> Response)?

    /// `answer`, a response ``HTTPServer`` makes itself without asking this
    /// responder (a request head it refuses, a body past its limit, a full
    /// server), finished as this responder finishes its own answers: with
    /// its security headers, say, and a line in its access log. It runs on
    /// the server's thread and must not block. The default returns `answer`
    /// unchanged.
    func finishServerAnswer(_ answer: Response, to request: Request) -> Response
}

extension HTTPResponder {
    /// Nil: every request goes through ``respond(to:)``.
    public func respondImmediately(to request: Request) -> Response? { nil }

    /// Nil: every request goes through ``respond(to:)``.
    public func mainActorWork(for request: Request) -> (@MainActor @Sendable () async throws -> Response)? { nil }

    /// `answer` unchanged.
    public func finishServerAnswer(_ answer: Response, to request: Request) -> Response { answer }
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

/// Code that wraps every request: logging, error mapping, authentication, headers.
///
/// Call `next` to continue inward; return without calling it to answer early.
public protocol Middleware: Sendable {
    /// The response to `request`: usually `next`'s, changed or observed on
    /// the way out; or one of its own, without calling `next`.
    func respond(to request: Request, next: HTTPHandler) async throws -> Response
}

/// Middleware that can also finish a response the router's fast path
/// (``HTTPRouter/fastPath(_:)``), an immediate route (an ``ImmediateHandler``)
/// or a main-actor route (a ``MainActorHandler``) made, without the
/// asynchronous chain: an access log logs it, a header middleware adds its
/// headers. Conform only when the `finish` methods do for such an answer,
/// or such an error, all that `respond(to:next:)` would.
public protocol FastPathMiddleware: Middleware {
    /// `response`, finished as `respond(to:next:)` would have finished it;
    /// `start` is when the request reached the router.
    func finish(_ request: Request, _ response: Response, startedAt start: ContinuousClock.Instant) -> Response

    /// What `respond(to:next:)` does with `error`, thrown inward while
    /// answering `request` with main-actor work (see
    /// ``HTTPResponder/mainActorWork(for:)``): the response it turns the
    /// error into, or nil to pass the error on (after noting it, as an access
    /// log does). The default passes it on untouched, as middleware that
    /// catches nothing does.
    func finish(_ request: Request, failure error: any Error, startedAt start: ContinuousClock.Instant) -> Response?
}

extension FastPathMiddleware {
    /// Nil: the error goes on outward untouched.
    public func finish(_ request: Request, failure error: any Error, startedAt start: ContinuousClock.Instant) -> Response? {
        nil
    }
}
