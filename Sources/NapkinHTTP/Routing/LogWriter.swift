import Foundation
@_spi(Napkin) import NapkinSupport

/// Writes lines in batches from a background thread, so a request handler only
/// appends to a buffer and never waits on a `write` to a file, pipe or terminal.
///
/// Lines keep the order they were given in and each is written whole. The
/// buffer is written at least every `interval` (100 ms by default), as soon as
/// it passes `batchBytes`, on ``flush()``, and on ``close()``. The shared
/// ``standardError`` writer is also flushed when the process exits normally
/// (`exit`, or returning from `main`), so a clean shutdown loses no line. If
/// the output falls far behind, a caller writes the backlog itself rather
/// than letting memory grow: lines are slowed, never dropped.
public final class LogWriter: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var closed = false
    }

    // pthread locks (`Locked`), not `Mutex`: request threads and the writer
    // thread share them, and ThreadSanitizer only sees pthread locks.
    private let state = Locked(State())
    /// Held while a batch is taken and written, so batches leave in order;
    /// it counts the batches written.
    private let writing = Locked<UInt64>(0)
    private let wake = Wakeup.make()
    private let output: @Sendable ([UInt8]) -> Void
    private let batchBytes: Int
    private let maxBufferedBytes: Int

    /// A writer handing each batch of whole lines to `output`, from its own thread.
    public init(
        interval: Duration = .milliseconds(100),
        batchBytes: Int = 32 * 1024,
        maxBufferedBytes: Int = 4 << 20,
        output: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.output = output
        self.batchBytes = batchBytes
        self.maxBufferedBytes = max(maxBufferedBytes, batchBytes)
        let interval = max(interval, .milliseconds(1))
        Thread.detachNewThread { [self] in
            Thread.current.name = "napkin log writer"
            while true {
                wake.wait(timeout: interval)
                flush()
                if state.withLock({ $0.closed }) { return }
            }
        }
    }

    /// A writer appending to the file descriptor `fd` (retrying short writes).
    public convenience init(fileDescriptor fd: Int32, interval: Duration = .milliseconds(100)) {
        self.init(interval: interval) { bytes in
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR || errno == EAGAIN { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }

    /// The process's standard error, batched; flushed at exit.
    public static let standardError: LogWriter = {
        let writer = LogWriter(fileDescriptor: 2)
        atexit { LogWriter.standardError.flush() }
        return writer
    }()

    /// Queues `line` (a newline is added). Never blocks on the output unless
    /// more than `maxBufferedBytes` are already waiting.
    public func write(_ line: String) {
        var line = line
        line.withUTF8 { append($0) }
    }

    /// Queues one line of `bytes` (a newline is added).
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append { $0.append(contentsOf: bytes) }
    }

    /// Queues one line that `build` appends to the buffer in place (a
    /// newline is added); `build` runs under the writer's lock, so keep it short.
    public func append(_ build: (inout [UInt8]) -> Void) {
        let count = state.withLock { state -> Int in
            build(&state.buffer)
            state.buffer.append(0x0A)
            return state.buffer.count
        }
        if count >= maxBufferedBytes {
            flush()
        } else if count >= batchBytes {
            // Coalesced (see `Wakeup`): while a wake is pending, this is an atomic exchange.
            wake.wake()
        }
    }

    /// Writes everything queued so far, and returns once it is written.
    public func flush() {
        writing.withLock { batches in
            let batch = state.withLock { state -> [UInt8] in
                guard !state.buffer.isEmpty else { return [] }
                let taken = state.buffer
                state.buffer = []
                state.buffer.reserveCapacity(min(taken.count, batchBytes))
                return taken
            }
            if !batch.isEmpty {
                output(batch)
                batches &+= 1
            }
        }
    }

    /// Flushes and stops the background thread; later lines are still
    /// accepted but go out only on ``flush()``.
    public func close() {
        state.withLock { $0.closed = true }
        flush()
        wake.wake()
    }
}
