import Foundation

/// Writes one line per request: method, path, status, body bytes and duration.
///
/// Put it first (outermost) so it also times the other middleware and sees the
/// status that error mapping chose. Streamed bodies log `-` for bytes.
public struct AccessLog: Middleware {
    private let sink: @Sendable (String) -> Void

    /// An access log writing to `sink` (default: standard error).
    public init(sink: @escaping @Sendable (String) -> Void = AccessLog.standardError) {
        self.sink = sink
    }

    public func respond(to request: Request, next: HTTPHandler) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request)
            log(request, status: response.status.code, bytes: response.byteCount.map(String.init) ?? "-", start: start)
            return response
        } catch let error as HTTPError {
            log(request, status: error.status.code, bytes: String(error.message.utf8.count), start: start)
            throw error
        } catch {
            log(request, status: 500, bytes: "-", start: start)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, bytes: String, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        sink("\(request.method) \(request.path) \(status) \(bytes) \(micros)µs")
    }

    /// Writes a line to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
