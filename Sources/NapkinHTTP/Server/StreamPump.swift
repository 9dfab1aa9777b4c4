import CMicroHTTPD
import Synchronization

/// Moves a streamed body from a Swift `AsyncThrowingStream` into libmicrohttpd's
/// content reader, without ever holding a thread while the stream is idle.
///
/// When the reader finds nothing buffered it suspends the connection and returns
/// 0 (returning 0 without suspending would spin a core); the next chunk resumes
/// it. When the client goes away the consuming task is cancelled, which ends the
/// stream and fires its `onTermination`. All mutable state is behind `state` (a pthread mutex).
final class StreamPump: Sendable {
    struct State {
        var buffer: [UInt8] = []
        var offset = 0
        var finished = false
        var failed = false
        var readerSuspended = false
        var closed = false
        var task: Task<Void, Never>?
        var spaceWaiter: CheckedContinuation<Void, Never>?
    }

    /// Chunks beyond this many buffered bytes make the producer wait for the client.
    static let highWater = 256 * 1024

    /// The `MHD_Connection` address; only resumed by the side that saw it suspended.
    let connection: UInt
    let state = Locked(State())

    init(connection: UInt) {
        self.connection = connection
    }

    /// Starts consuming `stream` on a task of its own.
    func start(_ stream: AsyncThrowingStream<[UInt8], any Error>) {
        let task = Task { [self] in
            do {
                for try await chunk in stream {
                    await push(chunk)
                    if Task.isCancelled { break }
                }
                finish(failed: false)
            } catch {
                finish(failed: true)
            }
        }
        let cancel = state.withLock { s -> Bool in
            s.task = task
            return s.closed
        }
        if cancel { task.cancel() }
    }

    private func push(_ chunk: [UInt8]) async {
        guard !chunk.isEmpty else { return }
        let (resume, full) = state.withLock { s -> (Bool, Bool) in
            guard !s.closed, !s.finished else { return (false, false) }
            s.buffer.append(contentsOf: chunk)
            let full = s.buffer.count - s.offset > StreamPump.highWater
            if s.readerSuspended {
                s.readerSuspended = false
                return (true, full)
            }
            return (false, full)
        }
        if resume { MHD_resume_connection(OpaquePointer(bitPattern: connection)) }
        if full {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let wait = state.withLock { s -> Bool in
                    guard !s.closed, !s.finished, s.buffer.count - s.offset > StreamPump.highWater else { return false }
                    s.spaceWaiter = c
                    return true
                }
                if !wait { c.resume() }
            }
        }
    }

    /// Marks the end of the body (cleanly or not) and wakes the reader to send it.
    func finish(failed: Bool) {
        let (resume, waiter) = state.withLock { s -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !s.finished else { return (false, nil) }
            s.finished = true
            s.failed = failed
            let waiter = s.spaceWaiter
            s.spaceWaiter = nil
            if s.readerSuspended, !s.closed {
                s.readerSuspended = false
                return (true, waiter)
            }
            return (false, waiter)
        }
        waiter?.resume()
        if resume { MHD_resume_connection(OpaquePointer(bitPattern: connection)) }
    }

    /// Ends the body at shutdown: stop consuming, send the final chunk.
    func end() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(failed: false)
    }

    /// The connection is gone: never touch it again, and cancel the consumer.
    func close() {
        let (task, waiter) = state.withLock { s -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            s.closed = true
            s.finished = true
            let waiter = s.spaceWaiter
            s.spaceWaiter = nil
            return (s.task, waiter)
        }
        waiter?.resume()
        task?.cancel()
    }

    /// libmicrohttpd's content reader: copy what is buffered, end, or suspend.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        var waiter: CheckedContinuation<Void, Never>?
        let result = state.withLock { s -> Int in
            let available = s.buffer.count - s.offset
            if available > 0 {
                let n = Swift.min(available, max)
                s.buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + s.offset, byteCount: n)
                }
                s.offset += n
                if s.offset == s.buffer.count {
                    s.buffer = []
                    s.offset = 0
                }
                if s.buffer.count - s.offset <= StreamPump.highWater / 2 {
                    waiter = s.spaceWaiter
                    s.spaceWaiter = nil
                }
                return n
            }
            if s.finished {
                return s.failed ? StreamPump.endWithError : StreamPump.endOfStream
            }
            s.readerSuspended = true
            MHD_suspend_connection(OpaquePointer(bitPattern: connection))
            return 0
        }
        waiter?.resume()
        return result
    }

    static let endOfStream = -1      // MHD_CONTENT_READER_END_OF_STREAM
    static let endWithError = -2     // MHD_CONTENT_READER_END_WITH_ERROR
}
