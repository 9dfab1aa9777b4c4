/// An error that carries the HTTP answer it should become.
///
/// Handlers throw it to stop early with a precise status (`400` for bad input,
/// `404` for a missing record); the server and ``ErrorMiddleware`` turn it into a
/// plain-text response. Its message is shown to the client, so keep it short and
/// free of internal detail.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The status to answer with.
    public var status: HTTPStatus
    /// The text body sent to the client.
    public var message: String

    /// An error answering `status`, with `message` as body (default: the reason phrase).
    public init(_ status: HTTPStatus, _ message: String? = nil) {
        self.status = status
        self.message = message ?? status.reason
    }

    /// The code and the message: `404 Not Found`.
    public var description: String { "\(status.code) \(message)" }
}
