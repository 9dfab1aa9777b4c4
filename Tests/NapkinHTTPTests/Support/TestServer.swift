import NapkinHTTP
import Synchronization

/// Collects log lines so tests can assert on what the server reported.
final class LogSink: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var write: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}

/// Starts a server on 127.0.0.1 port 0, runs `body`, and always shuts it down.
func withServer<T: Sendable>(
    _ responder: any HTTPResponder,
    configuration: ServerConfiguration = .init(),
    log: LogSink = LogSink(),
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    let server = HTTPServer(configuration: configuration, responder: responder, log: log.write)
    try server.start()
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// One GET/HEAD/POST on a fresh connection.
func fetch(_ port: Int, _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) async throws -> TestConnection.Reply {
    try await offPool {
        let connection = try TestConnection(port: port)
        return try connection.request(method, target, headers: headers, body: body)
    }
}

/// Fails the test if `operation` does not finish within `seconds` (a guard against hangs, not a wait).
func within<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw TestConnection.Failure(description: "timed out after \(seconds)s")
        }
        group.cancelAll()
        return value
    }
}

/// One GET on a fresh connection.
func fetch(_ port: Int, _ target: String, headers: [(String, String)] = []) async throws -> TestConnection.Reply {
    try await fetch(port, "GET", target, headers: headers)
}
