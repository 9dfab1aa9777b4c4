import CMicroHTTPD
@_spi(Napkin) import NapkinSupport

/// Feeds one streamed response body from its ``Channel`` into libmicrohttpd's
/// content reader, without holding a thread while the channel is empty.
///
/// When the reader finds nothing ready it suspends the connection and
/// returns 0 (returning 0 without suspending would spin a core); the
/// channel's waker resumes it. The pump's own lock orders the two: a value
/// that arrives between the poll and the suspend is not lost, because the
/// waker then finds `suspended` false and leaves a note the reader checks
/// before it suspends.
///
/// Every way the body can end goes through the channel: the client leaving
/// (``close()``, from libmicrohttpd's completed callback) cancels it; server
/// shutdown (``end()``) finishes it, so the client gets the final chunk. The
/// channel's termination handlers do the rest.
final class BodyPump: ChannelWaker {
    private struct State {
        /// A chunk partly copied out; the rest goes first on the next read.
        var leftover: [UInt8] = []
        var offset = 0
        var suspended = false
        /// The waker fired while the reader was between poll and suspend.
        var woken = false
        var closed = false
    }

    /// The `MHD_Connection` address; resumed only by the side that saw it suspended.
    let connection: UInt
    /// The loop that runs the connection.
    let loop: ServerLoop?
    let channel: Channel<[UInt8]>
    private let state = Locked(State())

    init(connection: UInt, loop: ServerLoop?, channel: Channel<[UInt8]>) {
        self.connection = connection
        self.loop = loop
        self.channel = channel
    }

    /// A pump over a user's `AsyncThrowingStream`: a task moves its chunks
    /// into a channel with backpressure, and the channel's end cancels the task
    /// (which ends the stream's iteration and fires its `onTermination`).
    static func channel(draining stream: AsyncThrowingStream<[UInt8], any Error>) -> Channel<[UInt8]> {
        let channel = Channel<[UInt8]>(policy: .backpressure(capacity: 16))
        let producer = Task {
            do {
                for try await chunk in stream where !chunk.isEmpty {
                    guard await channel.send(chunk) else { return }
                }
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        channel.onTermination { producer.cancel() }
        return channel
    }

    /// libmicrohttpd's content reader: copy what is ready, end, or suspend.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if let copied = copyLeftover(into: buffer, max: max) { return copied }
        while true {
            switch channel.poll(waking: self) {
            case .value(let chunk):
                guard !chunk.isEmpty else { continue }
                let n = Swift.min(chunk.count, max)
                chunk.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: n)
                }
                if n < chunk.count {
                    state.withLock { s in
                        s.leftover = chunk
                        s.offset = n
                    }
                }
                return n
            case .end:
                return BodyPump.endOfStream
            case .failed:
                return BodyPump.endWithError
            case .pending:
                let suspended = state.withLock { s -> Bool in
                    if s.woken || s.closed {
                        s.woken = false
                        return false
                    }
                    s.suspended = true
                    MHD_suspend_connection(OpaquePointer(bitPattern: connection))
                    return true
                }
                if suspended { return 0 }
            }
        }
    }

    private func copyLeftover(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int? {
        state.withLock { s -> Int? in
            guard !s.leftover.isEmpty else { return nil }
            let n = Swift.min(s.leftover.count - s.offset, max)
            s.leftover.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + s.offset, byteCount: n)
            }
            s.offset += n
            if s.offset == s.leftover.count {
                s.leftover = []
                s.offset = 0
            }
            return n
        }
    }

    /// The channel has something (or ended): resume the reader if it sleeps.
    func wake() {
        let resume = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            guard s.suspended else {
                s.woken = true
                return false
            }
            s.suspended = false
            return true
        }
        guard resume else { return }
        let connection = connection
        let loop = loop
        StreamWakeups.deliver {
            MHD_resume_connection(OpaquePointer(bitPattern: connection))
            loop?.wake()
        }
    }

    /// Ends the body at shutdown: the client gets what is buffered, then the final chunk.
    func end() {
        channel.finish()
    }

    /// The connection is gone: never touch it again; cancel the channel.
    func close() {
        state.withLock { s in
            s.closed = true
            s.leftover = []
        }
        channel.cancel()
    }

    static let endOfStream = -1      // MHD_CONTENT_READER_END_OF_STREAM
    static let endWithError = -2     // MHD_CONTENT_READER_END_WITH_ERROR
}
