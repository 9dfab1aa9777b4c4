import NapkinHTTP

/// Adds napkin's security headers to every response: the CSP, no MIME
/// sniffing, a same-origin referrer policy, and no framing.
///
/// An event stream gets only `nosniff`: the policy, the referrer policy and
/// the framing rule govern documents, and a `text/event-stream` body is
/// never one. libmicrohttpd keeps a copy of every header for as long as the
/// stream is open, so each live tab would carry them for nothing.
struct SecurityHeaders: Middleware {
    /// What every response gets.
    private let documentFields: [HTTPHeaders.Element]
    /// What an event stream gets.
    private static let streamFields: [HTTPHeaders.Element] = [("X-Content-Type-Options", "nosniff")]

    init(contentSecurityPolicy: String) {
        documentFields = Self.streamFields + [
            ("Content-Security-Policy", contentSecurityPolicy), ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"),
        ]
    }

    func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        let answer = next(request)
        // An answer at hand is finished now, with no closure to allocate.
        if case .immediate(let outcome) = answer { return .immediate(outcome.map(stamp)) }
        return answer.finished { [self] outcome in outcome.map(stamp) }
    }

    private func stamp(_ response: Response) -> Response {
        var response = response
        response.headers.set(Self.isEventStream(response) ? Self.streamFields : documentFields)
        return response
    }

    static func isEventStream(_ response: Response) -> Bool {
        response.headers["Content-Type"]?.hasPrefix("text/event-stream") ?? false
    }
}
