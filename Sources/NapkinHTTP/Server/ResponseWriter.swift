import CMicroHTTPD

/// Turns a napkin ``Response`` into a libmicrohttpd response and queues it.
/// Only called on libmicrohttpd's thread inside the access handler, or while the
/// connection is suspended — the two moments `MHD_queue_response` is legal.
enum ResponseWriter {
    static func queue(_ response: Response, on connection: OpaquePointer, context: RequestContext, core: ServerCore) {
        let isHead = context.state.withLock { $0.isHead }
        let mhd: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            if isHead, bytes.isEmpty, let length = response.headers["Content-Length"].flatMap(UInt64.init) {
                // HEAD keeps the GET answer's length; libmicrohttpd never reads a HEAD body.
                mhd = MHD_create_response_from_callback(length, 16, { _, _, _, _ in StreamPump.endWithError }, nil, nil)
            } else {
                mhd = bytes.withUnsafeBytes { raw in
                    MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
                }
            }
        case .stream(let stream):
            let pump = StreamPump(connection: context.connection)
            context.state.withLock { $0.pump = pump }
            core.register(pump)
            mhd = MHD_create_response_from_callback(
                UInt64.max, 256,
                { cls, _, buffer, max in
                    guard let cls, let buffer else { return StreamPump.endWithError }
                    return Unmanaged<StreamPump>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
                },
                Unmanaged.passRetained(pump).toOpaque(),
                { cls in
                    guard let cls else { return }
                    Unmanaged<StreamPump>.fromOpaque(cls).release()
                })
            pump.start(stream)
        }
        guard let mhd else { return }
        for (name, value) in response.headers where !HTTPHeaders.same(name, "Content-Length") {
            MHD_add_response_header(mhd, name, value)
        }
        if core.stopping.load(ordering: .relaxed) {
            MHD_add_response_header(mhd, "Connection", "close")
        }
        MHD_queue_response(connection, UInt32(response.status.code), mhd)
        MHD_destroy_response(mhd)
    }
}
