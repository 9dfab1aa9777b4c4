/// How a responder answers one request, decided once, when the request
/// arrives: at once, as main-actor work, or as a task.
///
/// ``HTTPServer`` sends an ``immediate(_:)`` answer from its own thread
/// with no task; runs ``mainActor(_:)`` work as one main-actor task that
/// sends its own response; and starts ``task(_:)`` work on the server's
/// thread, where it runs until it first suspends. `TestClient` in
/// process runs the same answers, so a test takes the path a browser does.
public enum Answer: Sendable {
    /// The response (or the error) at hand, with nothing to await: a cached
    /// file, bytes encoded when they last changed, a refusal.
    case immediate(Result<Response, any Error>)
    /// Work that renders from main-actor state: a page of a router's tree,
    /// a form post handed to it.
    case mainActor(@MainActor @Sendable () async throws -> Response)
    /// Any other work: awaits what it needs, wherever it runs.
    case task(@Sendable () async throws -> Response)

    /// `response`, at once.
    public static func now(_ response: Response) -> Answer {
        .immediate(.success(response))
    }

    /// This answer with `finish` applied to its outcome, the response or
    /// the error, where the answer is made: at once for an immediate
    /// answer, on the main actor for main-actor work, in the task for a
    /// task. Middleware finishes every kind of answer with it.
    public func finished(
        by finish: @escaping @Sendable (Result<Response, any Error>) -> Result<Response, any Error>
    ) -> Answer {
        switch self {
        case .immediate(let outcome):
            return .immediate(finish(outcome))
        case .mainActor(let work):
            return .mainActor { try finish(await Result.catching { try await work() }).get() }
        case .task(let work):
            return .task { try finish(await Result.catching { try await work() }).get() }
        }
    }

    /// The response, made as ``HTTPServer`` makes it (main-actor work on the
    /// main actor, a task's work in this task); the error it ends with is
    /// thrown.
    public func response() async throws -> Response {
        switch self {
        case .immediate(let outcome): return try outcome.get()
        case .mainActor(let work): return try await MainActorWork.run(work)
        case .task(let work): return try await work()
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`, run in the caller's isolation: its value, or
    /// what it threw.
    static func catching(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Success) async -> Result {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}

extension Answer {
    /// What the server sends for an outcome: the response, or the one an
    /// error no middleware mapped becomes (an ``HTTPError``'s status and
    /// message, else a bare `500` whose detail goes to `log`).
    static func sent(_ outcome: Result<Response, any Error>, for request: Request, log: (String) -> Void) -> Response {
        switch outcome {
        case .success(let response): response
        case .failure(let error): ErrorMiddleware.response(for: error, request: request, log: log)
        }
    }

    /// The response ``HTTPServer`` sends for this answer to `request`: the
    /// same work, kinds and error mapping, awaited here. For
    /// `TestClient`'s in-process transport.
    package func sent(for request: Request, log: @escaping @Sendable (String) -> Void) async -> Response {
        switch self {
        case .immediate(let outcome):
            return Answer.sent(outcome, for: request, log: log)
        case .mainActor(let work):
            return await Task { @MainActor in Answer.sent(await Result.catching { try await work() }, for: request, log: log) }.value
        case .task(let work):
            return Answer.sent(await Result.catching { try await work() }, for: request, log: log)
        }
    }
}
