extension ResponseBody {
    /// The body as a sequence of chunks, whatever its kind — how in-process
    /// clients and tests read a response without a socket. Cancelling the
    /// reading task ends a streamed body the way a departing client would.
    public func chunks() -> AsyncThrowingStream<[UInt8], any Error> {
        switch self {
        case .bytes(let bytes):
            AsyncThrowingStream { continuation in
                if !bytes.isEmpty { continuation.yield(bytes) }
                continuation.finish()
            }
        case .file(let region):
            AsyncThrowingStream { continuation in
                let bytes = region.readAll()
                if !bytes.isEmpty { continuation.yield(bytes) }
                continuation.finish()
            }
        case .stream(let stream):
            stream
        case .channel(let channel):
            AsyncThrowingStream(unfolding: { try await channel.next() })
        case .events(let channel):
            AsyncThrowingStream(unfolding: { try await channel.next()?.bytes })
        }
    }
}
