import CHiredis

extension RedisReply {
    /// Copies a hiredis reply (RESP2 types) into Swift values; the caller
    /// still frees it.
    init(_ reply: UnsafeMutablePointer<redisReply>) {
        let node = reply.pointee
        switch node.type {
        case REDIS_REPLY_STRING:
            self = .bulk(Self.bytes(node.str, node.len))
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(node.str, node.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(node.str, node.len), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int(truncatingIfNeeded: node.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(node.elements)
            for index in 0..<node.elements {
                if let element = node.element[index] { elements.append(RedisReply(element)) } else { elements.append(.null) }
            }
            self = .array(elements)
        default:
            self = .null
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
