import NapkinHTTP

/// How a ``TestClient`` reaches the app: in-process through the responder
/// (the whole pipeline, no sockets) or over a real localhost socket.
public protocol TestTransport: Sendable {
    /// Sends `request` and returns the response; a streamed body stays a
    /// stream, to be read as it arrives.
    func send(_ request: Request) async throws -> Response
}

/// Calls the app's responder as ``/NapkinHTTP/HTTPServer`` does: the
/// responder's ``/NapkinHTTP/Answer`` is run by its kind (at once, as one
/// main-actor task, or as a task) and an error no middleware mapped
/// becomes the status the server would send. Routing, middleware, sessions
/// and rendering all run; only the socket is left out.
public struct InProcessTransport: TestTransport {
    let responder: any HTTPResponder

    /// A transport into `responder`, usually the app's router.
    public init(responder: any HTTPResponder) {
        self.responder = responder
    }

    /// Hands `request` to the responder, from `127.0.0.1` unless it names
    /// its peer, and returns what the server would send.
    public func send(_ request: Request) async throws -> Response {
        var request = request
        request.peer = request.peer ?? "127.0.0.1:0"
        return await responder.answer(request).sent(for: request, log: AccessLog.standardError)
    }
}
