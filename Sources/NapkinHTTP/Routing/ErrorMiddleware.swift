/// Turns errors into responses: ``HTTPError`` into its status and message,
/// anything else into a generic `500` whose detail goes only to the log.
///
/// Clients never see internal error text; operators find it in the log sink.
public struct ErrorMiddleware: Middleware {
    private let log: @Sendable (String) -> Void

    /// Error mapping that reports unexpected errors to `log` (default: standard error).
    public init(log: @escaping @Sendable (String) -> Void = AccessLog.standardError) {
        self.log = log
    }

    /// Passes the request on, and turns an error thrown inward into its
    /// response: an ``HTTPError``'s status and message, or a bare `500`.
    public func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        let log = log
        return next(request).finished { outcome in
            guard case .failure(let error) = outcome else { return outcome }
            return .success(ErrorMiddleware.response(for: error, request: request, log: log))
        }
    }

    static func response(for error: any Error, request: Request, log: (String) -> Void) -> Response {
        if let error = error as? HTTPError {
            return Response.text(error.message, status: error.status)
        }
        let id = request.id.map { " [\($0)]" } ?? ""
        log("error\(id): \(AccessLog.escape(request.method.rawValue)) \(AccessLog.escape(request.rawPath)): \(AccessLog.escape(String(reflecting: error)))")
        return Response.text("Internal Server Error", status: .internalServerError)
    }
}
