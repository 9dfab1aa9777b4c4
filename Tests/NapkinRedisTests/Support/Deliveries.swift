import NapkinStorage
import NapkinRedis

struct NoDelivery: Error, CustomStringConvertible {
    let description: String
}

/// The stream's next delivery, failing after `timeout` (a lost message must
/// fail the test, not hang it). Only one `next` at a time per stream.
func next(_ stream: AsyncStream<BusDelivery>, within timeout: Duration = .seconds(10)) async throws -> BusDelivery? {
    try await withThrowingTaskGroup(of: BusDelivery?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw NoDelivery(description: "nothing was delivered within \(timeout)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// The next `.message` on the stream, skipping `.reconnected`.
func nextMessage(_ stream: AsyncStream<BusDelivery>, within timeout: Duration = .seconds(10)) async throws -> [UInt8]? {
    while let delivery = try await next(stream, within: timeout) {
        if case .message(let payload) = delivery { return payload }
    }
    return nil
}
