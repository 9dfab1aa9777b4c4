@testable import NapkinHTTP

/// Middleware that stamps `X-Stamp: 1` on every answer on its way out, as
/// napkin's security headers do, whatever kind of answer it is.
struct Stamp: Middleware {
    func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        next(request).finished { outcome in
            outcome.map { response in
                var response = response
                response.headers["X-Stamp"] = "1"
                return response
            }
        }
    }
}

extension Answer {
    /// The response, when the answer is one at hand; nil for work.
    var immediateResponse: Response? {
        if case .immediate(.success(let response)) = self { response } else { nil }
    }

    /// Whether the answer is main-actor work.
    var isMainActorWork: Bool {
        if case .mainActor = self { true } else { false }
    }
}

/// A response's body as text; `<stream>` for a streamed one.
func bodyText(_ response: Response) -> String {
    if case .bytes(let b) = response.body { return String(decoding: b, as: UTF8.self) }
    return "<stream>"
}
