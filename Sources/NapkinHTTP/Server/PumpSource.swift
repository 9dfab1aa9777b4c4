/// A piece of a streamed body as ``BodyPump`` copies it into
/// libmicrohttpd's buffer, perhaps over several reads: a byte array, or an
/// event frame behind its stream's `id:` line (which shares its lines with
/// every other stream sending the event).
protocol BodyChunk: Sendable {
    /// How many bytes the chunk sends.
    var byteCount: Int { get }
    /// Copies `count` of those bytes, from `offset`, to `target`.
    func copyBytes(from offset: Int, count: Int, into target: UnsafeMutableRawPointer)
}

extension Array: BodyChunk where Element == UInt8 {
    var byteCount: Int { count }

    func copyBytes(from offset: Int, count: Int, into target: UnsafeMutableRawPointer) {
        withUnsafeBytes { target.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
    }
}

extension EventFrame: BodyChunk {}

/// What ``BodyPump/read(into:max:)`` found in its channel.
enum PumpPoll {
    case chunk(any BodyChunk)
    case pending
    case end
    case failed
}

/// The channel a ``BodyPump`` drains, whatever chunks it carries.
protocol PumpSource: AnyObject, Sendable {
    /// The next chunk, or the end; when nothing is ready, registers `waker`
    /// and runs `sleep` under the channel's lock (``Channel/poll(waking:sleeping:)``).
    func pollChunk(waking waker: any ChannelWaker, sleeping sleep: () -> Void) -> PumpPoll
    /// The consumer's end (``Channel/cancel()``).
    func cancel()
    /// The producer's end (``Channel/finish(throwing:)``).
    func finish(throwing error: (any Error)?)
}

extension Channel: PumpSource where Element: BodyChunk {
    @specialized(where Element == [UInt8])
    @specialized(where Element == EventFrame)
    func pollChunk(waking waker: any ChannelWaker, sleeping sleep: () -> Void) -> PumpPoll {
        switch poll(waking: waker, sleeping: sleep) {
        case .value(let chunk): .chunk(chunk)
        case .pending: .pending
        case .end: .end
        case .failed: .failed
        }
    }
}
