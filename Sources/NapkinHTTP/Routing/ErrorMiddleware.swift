/// Turns errors into responses: ``HTTPError`` into its status and message,
/// anything else into a generic `500` whose detail goes only to the log.
///
/// Clients never see internal error text; operators find it in the log sink.
public struct ErrorMiddleware: Middleware {
    private let log: @Sendable (String) -> Void
    private let format: AccessLog.Format

    /// Error mapping that reports unexpected errors to `log` (default:
    /// standard error), as text or, with `format` ``AccessLog/Format/json``,
    /// as one JSON object per line (`level`, `method`, `path`, `error`,
    /// `request_id`), its values escaped as the access log escapes.
    public init(log: @escaping @Sendable (String) -> Void = AccessLog.standardError, format: AccessLog.Format = .text) {
        self.log = log
        self.format = format
    }

    /// Passes the request on, and turns an error thrown inward into its
    /// response: an ``HTTPError``'s status and message, or a bare `500`.
    public func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        let answer = next(request)
        // An answer at hand is finished now, with no closure to allocate
        // and the request not copied into one.
        if case .immediate(let outcome) = answer { return .immediate(finish(outcome, request)) }
        return answer.finished { [self] outcome in finish(outcome, request) }
    }

    private func finish(_ outcome: Result<Response, any Error>, _ request: Request) -> Result<Response, any Error> {
        guard case .failure(let error) = outcome else { return outcome }
        return .success(ErrorMiddleware.response(for: error, request: request, log: log, format: format))
    }

    static func response(for error: any Error, request: Request, log: (String) -> Void, format: AccessLog.Format = .text) -> Response {
        if let error = error as? HTTPError {
            return Response.text(error.message, status: error.status)
        }
        let (method, path, detail) = (
            AccessLog.escape(request.method.rawValue), AccessLog.escape(request.rawPath), AccessLog.escape(String(reflecting: error)))
        switch format {
        case .text:
            log("error\(request.id.map { " [\($0)]" } ?? ""): \(method) \(path): \(detail)")
        case .json:
            var json = "{\"level\":\"error\",\"method\":" + AccessLog.jsonString(method) + ",\"path\":" + AccessLog.jsonString(path)
            json += ",\"error\":" + AccessLog.jsonString(detail)
            if let id = request.id { json += ",\"request_id\":" + AccessLog.jsonString(id) }
            log(json + "}")
        }
        return Response.text("Internal Server Error", status: .internalServerError)
    }
}
