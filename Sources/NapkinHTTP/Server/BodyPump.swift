import CMicroHTTPD
@_spi(Napkin) import NapkinSupport

/// Feeds one streamed response body from its ``Channel`` into libmicrohttpd's
/// content reader, without holding a thread while the channel is empty.
///
/// When the reader finds nothing ready it suspends the connection and
/// returns 0 (returning 0 without suspending would spin a core); the
/// channel's waker resumes it. The suspend happens under the channel's lock
/// as the pump registers as its waker (``Channel/poll(waking:sleeping:)``),
/// so a value that arrives at any moment finds the connection suspended, and
/// the one wake it causes resumes it: the pump needs no lock of its own.
///
/// Every way the body can end goes through the channel: the client leaving
/// cancels it, whether libmicrohttpd saw it (``close()``, from its completed
/// callback) or the loop's ``HangUpWatch`` did while the connection slept
/// (``clientLeft()``: libmicrohttpd does not watch a suspended connection);
/// server shutdown (``end()``) finishes it, so the client gets the final
/// chunk. The channel's termination handlers do the rest. Cancelling wakes a
/// sleeping pump, whose connection is still open; libmicrohttpd completes
/// only a connection that is awake, and then no waker is registered, so no
/// wake can reach a closed connection.
final class BodyPump: ChannelWaker {
    /// The `MHD_Connection` address.
    let connection: UInt
    /// The loop that runs the connection.
    let loop: ServerLoop?
    /// The body's channel: byte arrays, or an event stream's frames.
    let channel: any PumpSource
    /// A chunk partly copied out, and how far: the rest goes first on the
    /// next read. Only the connection's loop thread touches them (the reader
    /// and the completed callback both run there).
    nonisolated(unsafe) private var leftover: (any BodyChunk)?
    nonisolated(unsafe) private var offset = 0
    /// The connection's socket, taken when the pump first sleeps (nil
    /// before; -1 without a loop, or after ``close()``), and whether the
    /// loop's hang-up watch has it. Loop thread only.
    nonisolated(unsafe) private var socket: Int32?
    nonisolated(unsafe) private var watched = false
    /// The hang-up watch saw the client leave. Loop thread only.
    nonisolated(unsafe) private var clientGone = false

    /// How long the client may leave what was written unacknowledged (see
    /// ``Response/unacknowledgedLimit``): the socket gets it with its watch.
    private let unacknowledgedLimit: Duration?

    init(connection: UInt, loop: ServerLoop?, channel: any PumpSource, unacknowledgedLimit: Duration? = nil) {
        self.connection = connection
        self.loop = loop
        self.channel = channel
        self.unacknowledgedLimit = unacknowledgedLimit
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
        // Nothing more is sent to a client that left: libmicrohttpd closes the connection.
        if clientGone {
            leftover = nil
            return BodyPump.endWithError
        }
        if let leftover { return copyLeftover(leftover, into: buffer, max: max) }
        let connection = connection
        while true {
            let next = channel.pollChunk(waking: self) {
                MHD_suspend_connection(OpaquePointer(bitPattern: connection))
            }
            switch next {
            case .chunk(let chunk):
                let count = chunk.byteCount
                guard count > 0 else { continue }
                let n = Swift.min(count, max)
                chunk.copyBytes(from: 0, count: n, into: buffer)
                if n < count {
                    leftover = chunk
                    offset = n
                }
                return n
            case .end:
                return BodyPump.endOfStream
            case .failed:
                return BodyPump.endWithError
            case .pending:
                if socket == nil { watchForHangUp() }
                return 0
            }
        }
    }

    /// Puts the connection's socket in its loop's hang-up watch, the first
    /// time the pump sleeps, until ``close()``: one registration for the
    /// stream's whole life, however many times it sleeps.
    private func watchForHangUp() {
        guard let loop, let connection = OpaquePointer(bitPattern: connection) else {
            socket = -1
            return
        }
        let socket = napkin_connection_fd(connection)
        self.socket = socket
        watched = loop.hangUps.add(self, socket: socket)
        // A client gone without a word is found by the kernel: what it was
        // sent stays unacknowledged, and past the limit its socket fails,
        // which the watch reports.
        if let limit = unacknowledgedLimit, socket >= 0 {
            napkin_set_unacknowledged_limit(socket, UInt32(clamping: Wakeup.milliseconds(limit)))
        }
    }

    private func copyLeftover(_ chunk: any BodyChunk, into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        let n = Swift.min(chunk.byteCount - offset, max)
        chunk.copyBytes(from: offset, count: n, into: buffer)
        offset += n
        if offset == chunk.byteCount {
            leftover = nil
            offset = 0
        }
        return n
    }

    /// The channel has something (or ended) while the connection sleeps: resume it.
    func wake() {
        let connection = connection
        let loop = loop
        StreamWakeups.deliver({ MHD_resume_connection(OpaquePointer(bitPattern: connection)) }, thenWaking: loop)
    }

    /// Ends the body at shutdown: the client gets what is buffered, then the final chunk.
    func end() {
        channel.finish(throwing: nil)
    }

    /// The request is complete (its client may have left): stop watching
    /// the socket before libmicrohttpd closes it, and cancel the channel.
    /// The connection is awake, so no waker is registered: nothing wakes.
    func close() {
        leftover = nil
        if let socket, socket >= 0 {
            if watched { loop?.hangUps.remove(socket: socket) }
            // A kept-alive connection serves on with the system's default.
            if unacknowledgedLimit != nil { napkin_set_unacknowledged_limit(socket, 0) }
        }
        socket = -1
        watched = false
        channel.cancel()
    }

    /// The loop's hang-up watch saw the client leave: cancel the channel
    /// (its termination handlers tell the app), which wakes the pump if it
    /// sleeps; its next read ends the body, and libmicrohttpd closes the
    /// connection.
    func clientLeft() {
        clientGone = true
        channel.cancel()
    }

    static let endOfStream = -1      // MHD_CONTENT_READER_END_OF_STREAM
    static let endWithError = -2     // MHD_CONTENT_READER_END_WITH_ERROR
}
