@_spi(Napkin) import NapkinSupport
import napkin

extension TestClient {
    /// How long a request may take, response head and body, before the
    /// client fails it with a ``WaitExpired`` that names the request:
    /// longer than any settle timeout a test app should use, so a post that
    /// answers after its settle bound still arrives.
    public static let responseTimeout: Duration = .seconds(30)
}

/// Runs `operation` and returns what it returns, or throws `failure()` once
/// `limit` has passed — a bound on a wait that may never end (a lost event,
/// a server that never answers), not a pause.
///
/// The operation runs in a task of its own, cancelled when the limit passes,
/// so even a wait that ignores cancellation cannot hold the caller past it.
///
/// ```swift
/// try await withDeadline(.seconds(10), TimedOut("the pit's loop did not end")) {
///     await ticker.value
/// }
/// ```
public func withDeadline<T: Sendable>(
    _ limit: Duration,
    _ failure: @autoclosure @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Promise<Result<T, any Error>>()
    let work = Task {
        do {
            outcome.resolve(.success(try await operation()))
        } catch {
            outcome.resolve(.failure(error))
        }
    }
    let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        if outcome.resolve(.failure(failure())) { work.cancel() }
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
        try await outcome.value().get()
    } onCancel: {
        work.cancel()
        outcome.resolve(.failure(CancellationError()))
    }
}

/// A wait that ran out of time: its description says what never came,
/// and the line of the test that made it.
public struct TimedOut: Error, CustomStringConvertible {
    /// What did not happen in time, e.g. "the pit's loop did not end".
    public let message: String
    /// Where the error was made (the test's file, as `#fileID` spells it,
    /// and line), for a failure made where the test waits.
    public let fileID: String
    /// The line the error was made on.
    public let line: Int

    /// An error that reads `message`, made at `fileID`:`line`.
    public init(_ message: String, fileID: String = #fileID, line: Int = #line) {
        self.message = message
        self.fileID = fileID
        self.line = line
    }

    /// `Module/File.swift:line: message`.
    public var description: String { "\(fileID):\(line): \(message)" }
}
