@_spi(Napkin) import NapkinSupport
import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns a napkin ``Response`` into a libmicrohttpd response and queues it.
/// Only called on libmicrohttpd's thread inside the access handler, or while the
/// connection is suspended — the two moments `MHD_queue_response` is legal.
enum ResponseWriter {
    /// Queues `response`; `isHead` sends its headers (and length) only.
    static func queue(_ response: Response, on connection: OpaquePointer, isHead: Bool = false, context: RequestContext, core: ServerCore) {
        let mhd: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            // The same answer again (a cached file, JSON encoded once per change):
            // the response libmicrohttpd already has. Not while stopping, when
            // every answer says `Connection: close`, nor for an answer with a
            // header of its request's own.
            if !isHead, !response.isForOneRequest, !core.stopping.load(ordering: .relaxed),
               core.responses.queue(status: response.status.code, headers: response.headers, body: bytes, on: connection) {
                return
            }
            if isHead, bytes.isEmpty, let length = response.headers["Content-Length"].flatMap(UInt64.init) {
                // HEAD keeps the GET answer's length; libmicrohttpd never reads a HEAD body.
                mhd = MHD_create_response_from_callback(length, 16, { _, _, _, _ in BodyPump.endWithError }, nil, nil)
            } else {
                mhd = bytes.withUnsafeBytes { raw in
                    MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
                }
            }
        case .stream(let stream):
            mhd = pump(BodyPump.channel(draining: stream), context: context, core: core)
        case .channel(let channel):
            mhd = pump(channel, unacknowledgedLimit: response.unacknowledgedLimit, context: context, core: core)
        case .events(let channel):
            mhd = pump(channel, unacknowledgedLimit: response.unacknowledgedLimit, context: context, core: core)
        case .file(let region):
            if isHead {
                mhd = MHD_create_response_from_callback(UInt64(region.length), 16, { _, _, _, _ in BodyPump.endWithError }, nil, nil)
            } else {
                // libmicrohttpd closes the descriptor it is given; the region keeps its own.
                let fd = dup(region.descriptor)
                mhd = fd < 0 ? nil : MHD_create_response_from_fd_at_offset64(UInt64(region.length), fd, UInt64(region.offset))
                if mhd == nil, fd >= 0 { close(fd) }
            }
        }
        guard let mhd else { return }
        add(response.headers, to: mhd)
        if core.stopping.load(ordering: .relaxed) {
            MHD_add_response_header(mhd, "Connection", "close")
        }
        MHD_queue_response(connection, UInt32(response.status.code), mhd)
        MHD_destroy_response(mhd)
    }

    /// Writes `response` (a small one with its body in bytes) to the
    /// connection's socket, past libmicrohttpd, which must then close the
    /// connection without sending anything of its own: for an answer whose
    /// head does not fit in the connection's memory pool. Best effort: what
    /// the socket does not take at once is dropped.
    static func sendDirectly(_ response: Response, on connection: OpaquePointer) {
        guard case .bytes(let body) = response.body else { return }
        let fd = napkin_connection_fd(connection)
        guard fd >= 0 else { return }
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n"
        head += "Date: \(HTTPDate.format(Date().timeIntervalSince1970))\r\n"
        for (name, value) in response.headers where !HTTPHeaders.same(name, "Content-Length") {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, ResponseWriter.sendFlags) }
    }

    /// A send that never blocks and never raises `SIGPIPE` (which the server
    /// ignores anyway; macOS has no per-call flag for it).
    private static var sendFlags: Int32 {
        #if os(Linux)
        Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
        #else
        Int32(MSG_DONTWAIT)
        #endif
    }

    /// Adds every field but `Content-Length`, which libmicrohttpd computes.
    static func add(_ headers: HTTPHeaders, to mhd: OpaquePointer) {
        for (name, value) in headers where !HTTPHeaders.same(name, "Content-Length") {
            // withCString: a short string is copied to the stack, where the
            // implicit conversion would allocate an array for it.
            name.withCString { name in
                value.withCString { value in _ = MHD_add_response_header(mhd, name, value) }
            }
        }
    }

    /// The buffer libmicrohttpd allocates with the response of a body held
    /// open (an event stream, which sets ``Response/unacknowledgedLimit``),
    /// and keeps as long as it is open. Chunked (HTTP/1.1) it is never used:
    /// the pump writes into the connection's own buffer. Only an HTTP/1.0
    /// client is sent the body through it, a few more reads per event.
    static let heldBlockSize = 32

    /// A libmicrohttpd response that pulls `channel` through a ``BodyPump``.
    private static func pump(
        _ channel: any PumpSource, unacknowledgedLimit: Duration? = nil, context: RequestContext, core: ServerCore
    ) -> OpaquePointer? {
        let pump = BodyPump(connection: context.connection, loop: context.loop, channel: channel, unacknowledgedLimit: unacknowledgedLimit)
        context.state.withLock { $0.pump = pump }
        // Unregistered when the request completes (``Callbacks/completed``).
        core.register(pump)
        return MHD_create_response_from_callback(
            UInt64.max, unacknowledgedLimit == nil ? 256 : heldBlockSize,
            { cls, _, buffer, max in
                guard let cls, let buffer else { return BodyPump.endWithError }
                return Unmanaged<BodyPump>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
            },
            Unmanaged.passRetained(pump).toOpaque(),
            { cls in
                guard let cls else { return }
                Unmanaged<BodyPump>.fromOpaque(cls).release()
            })
    }
}
