import Foundation

/// A response body: bytes known up front, chunks produced over time, or a
/// region of a file the kernel sends from disk.
public enum ResponseBody: Sendable {
    /// The whole body, sent with a `Content-Length`.
    case bytes([UInt8])
    /// Chunks sent as they arrive (chunked encoding). When the client goes away
    /// the server stops iterating, which fires the stream's `onTermination`.
    indirect case stream(AsyncThrowingStream<[UInt8], any Error>)
    /// Chunks pulled from a channel as the client takes them (chunked
    /// encoding). The channel terminates however the body ends — sent,
    /// client gone, response discarded, server shutdown — so its termination
    /// handlers are the one place to clean up.
    case channel(Channel<[UInt8]>)
    /// An event stream's frames, pulled from a channel as the client takes
    /// them (chunked encoding), each sent as ``EventFrame/bytes``: the
    /// frames a stream shares with others stay shared until they are
    /// written. It ends as ``channel(_:)`` does.
    case events(Channel<EventFrame>)
    /// Part or all of an open file, sent with a `Content-Length` straight
    /// from disk: memory use does not grow with the file's size.
    case file(FileRegion)
}

extension ResponseBody {
    /// Ends a streamed body that will never be sent (HEAD, or a connection already
    /// answered), so its producer sees cancellation instead of running on unobserved.
    func discard() {
        switch self {
        case .stream(let stream):
            let consumer = Task { for try await _ in stream {} }
            consumer.cancel()
        case .channel(let channel):
            channel.cancel()
        case .events(let channel):
            channel.cancel()
        case .bytes, .file:
            break
        }
    }
}

/// An HTTP response: status, headers and body.
public struct Response: Sendable {
    /// The status code sent on the status line.
    public var status: HTTPStatus
    /// Header fields; `Content-Length` is computed by the server and need not be set.
    public var headers: HTTPHeaders
    /// The body: bytes, or a stream of chunks.
    public var body: ResponseBody
    /// How long what the server wrote may go unacknowledged by the client
    /// before its connection counts as gone (an event stream's heartbeat):
    /// a streamed body's socket gets it as `TCP_USER_TIMEOUT` where the
    /// platform has one. `nil`: the system's default (many minutes).
    var unacknowledgedLimit: Duration?
    /// An answer from ``StaticFiles`` (or napkin's own script): the same for
    /// every request for it, so the server can keep it built once, and
    /// ``AccessLog`` adds no per-request header to it.
    package var isStaticFile = false
    /// A header belongs to this one request (``AccessLog`` stamped its id),
    /// so the server does not look for the answer among those it keeps
    /// built (`ResponseCache`): it could never be found there again.
    package var isForOneRequest = false

    /// A response; every part defaults to an empty `200 OK`.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ s: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(s.utf8)))
    }

    /// A `text/html; charset=utf-8` response.
    public static func html(_ s: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(Array(s.utf8)))
    }

    /// A JSON response (`application/json; charset=utf-8`), encoded with `JSONEncoder`.
    public static func json<T: Encodable>(_ v: T, status: HTTPStatus = .ok) throws -> Response {
        let data = try JSONEncoder().encode(v)
        return Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(Array(data)))
    }

    /// A redirect; the default `303 See Other` is right after a form post (the browser follows with GET).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location])
    }

    /// Adds a `Set-Cookie` field for `cookie` (several cookies give several fields).
    public mutating func setCookie(_ cookie: Cookie) {
        headers.add(name: "Set-Cookie", value: cookie.headerValue)
    }

    /// The body length when it is known up front.
    var byteCount: Int? {
        switch body {
        case .bytes(let bytes): bytes.count
        case .file(let region): region.length
        case .stream, .channel, .events: nil
        }
    }
}
