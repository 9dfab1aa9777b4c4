import CMicroHTTPD
@_spi(Napkin) import NapkinSupport

/// libmicrohttpd responses for bodies sent again and again — a cached static
/// file, JSON encoded once per change — built once and queued on every
/// connection that asks for the same answer.
///
/// libmicrohttpd counts a response's references, so one response can be
/// queued on many connections at once; building one costs an allocation per
/// header field and a copy of the body, which for a small answer is a large
/// part of the request. An entry is found by its body's storage (the entry
/// holds the array, so that buffer cannot change or be reused for other
/// bytes), its status and its header fields. The table is direct-mapped: a
/// new body takes its slot, and libmicrohttpd frees the old response once
/// the last connection sending it is done. Bodies above ``maxBodyBytes``
/// are never kept, so the table holds at most `slotCount × maxBodyBytes`.
final class ResponseCache: Sendable {
    static let slotCount = 32
    static let maxBodyBytes = 32 * 1024

    private struct Entry: Sendable {
        let body: [UInt8]
        let status: Int
        let headers: HTTPHeaders
        /// The `MHD_Response` address; the entry holds one reference.
        let response: UInt
    }

    private let slots = Locked<[Entry?]>(Array(repeating: nil, count: slotCount))

    deinit {
        slots.withLock { slots in
            for case let entry? in slots { MHD_destroy_response(OpaquePointer(bitPattern: entry.response)) }
        }
    }

    /// Queues `body` with `status` and `headers` on `connection` from the
    /// cache, building the entry when it is missing; false (nothing queued)
    /// for a body the cache does not keep.
    func queue(status: Int, headers: HTTPHeaders, body: [UInt8], on connection: OpaquePointer) -> Bool {
        guard !body.isEmpty, body.count <= ResponseCache.maxBodyBytes else { return false }
        let address = ResponseCache.address(of: body)
        // Fibonacci hashing of the buffer's address (16-byte aligned).
        let slot = Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 59) % ResponseCache.slotCount
        return slots.withLock { slots in
            // Queued under the lock, so the entry's reference cannot be dropped
            // before libmicrohttpd has taken its own.
            if let entry = slots[slot], entry.status == status, entry.body.count == body.count,
               ResponseCache.address(of: entry.body) == address, entry.headers.sameFields(as: headers) {
                MHD_queue_response(connection, UInt32(status), OpaquePointer(bitPattern: entry.response))
                return true
            }
            guard let response = ResponseCache.make(body: body, headers: headers) else { return false }
            if let old = slots[slot] { MHD_destroy_response(OpaquePointer(bitPattern: old.response)) }
            slots[slot] = Entry(body: body, status: status, headers: headers, response: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(response))))
            MHD_queue_response(connection, UInt32(status), response)
            return true
        }
    }

    /// How many answers the table holds.
    var count: Int {
        slots.withLock { $0.count { $0 != nil } }
    }

    private static func address(of body: [UInt8]) -> UInt {
        body.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// A response sending `body` in place: libmicrohttpd holds the array
    /// (through a retained box) until it frees the response.
    private static func make(body: [UInt8], headers: HTTPHeaders) -> OpaquePointer? {
        let box = Unmanaged.passRetained(Box(body))
        let response = body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer_with_free_callback_cls(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                { cls in cls.map { Unmanaged<Box>.fromOpaque($0).release() } }, box.toOpaque())
        }
        guard let response else {
            box.release()
            return nil
        }
        ResponseWriter.add(headers, to: response)
        return response
    }

    /// Keeps an array's storage alive for libmicrohttpd.
    private final class Box {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}
