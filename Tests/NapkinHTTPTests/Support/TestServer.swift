@_spi(Napkin) import NapkinSupport
import Foundation
import Testing
@testable import NapkinHTTP

/// Collects log lines so tests can assert on what the server reported.
final class LogSink: Sendable {
    private let lines = Locked<[String]>([])
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
/// The operation runs in a task of its own, so even a wait that ignores cancellation
/// (`Task.value`, a server that never returns) cannot hold the test past the limit.
func within<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let outcome = Outcome<T>()
    let work = Task {
        do { outcome.resolve(.success(try await operation())) } catch { outcome.resolve(.failure(error)) }
    }
    let timer = Task {
        guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
        if outcome.resolve(.failure(TestConnection.Failure(description: "timed out after \(seconds)s"))) { work.cancel() }
    }
    defer { timer.cancel() }
    return try await outcome.value()
}

/// The first result of a race, handed to one waiter (behind an `NSLock`, which
/// ThreadSanitizer understands).
final class Outcome<T: Sendable>: @unchecked Sendable {
    // Safe to share: `result` and `waiter` are only touched holding `lock`.
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    private var waiter: CheckedContinuation<T, any Error>?

    /// Settles the race; `false` when it was settled already.
    @discardableResult
    func resolve(_ result: Result<T, any Error>) -> Bool {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return false
        }
        self.result = result
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(with: result)
        return true
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { waiter in
            lock.lock()
            if let result {
                lock.unlock()
                waiter.resume(with: result)
            } else {
                self.waiter = waiter
                lock.unlock()
            }
        }
    }
}

/// One GET on a fresh connection.
func fetch(_ port: Int, _ target: String, headers: [(String, String)] = []) async throws -> TestConnection.Reply {
    try await fetch(port, "GET", target, headers: headers)
}

/// Expects a handler that awaits `hop` to answer from the loop that read its
/// request, over twenty requests spread across two loops.
func expectHandlersComeBackToTheirLoop(after hop: @escaping @Sendable () async throws -> Void) async throws {
    var router = HTTPRouter()
    router.get("/hop") { _ in
        let before = ServerLoop.current
        try await hop()
        let after = ServerLoop.current
        return .text(before != nil && before === after ? "same loop" : "elsewhere")
    }
    try await withServer(router, configuration: ServerConfiguration(workerThreads: 2)) { server in
        for _ in 0..<20 {
            let reply = try await fetch(server.port, "/hop")
            #expect(reply.status == 200)
            #expect(reply.text == "same loop")
        }
    }
}
