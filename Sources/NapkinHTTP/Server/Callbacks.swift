@_spi(Napkin) import NapkinSupport
import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmicrohttpd's C callbacks. Each finds the ``ServerCore`` through its `cls`
/// pointer and the ``RequestContext`` through `con_cls`.
enum Callbacks {
    /// Called with the raw request target before anything is decoded; its return value
    /// becomes `con_cls`, so every request has a context from its first moment.
    static let uriLog: napkin_uri_log_cb = { cls, uri, connection in
        guard let cls else { return nil }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        let context = RequestContext(target: uri.map { String(cString: $0) } ?? "/", connection: connection)
        core.register(context)
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// Called once per request when libmicrohttpd is done with it (sent, failed or
    /// client gone): releases the context and cancels a streamed body's consumer.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, conCls, termination in
        guard let cls else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        // A connection kept alive waits for its next head from now
        // (MHD_REQUEST_TERMINATED_COMPLETED_OK).
        if termination.rawValue == 0 {
            core.nextHeads.begin(connection)
            // A stopping server keeps no connection idle (an event stream's,
            // kept alive from before the stop, ends here).
            if core.stopping.load(ordering: .sequentiallyConsistent) { core.nextHeads.shutDownAll() }
        }
        guard let conCls, let raw = conCls.pointee else { return }
        conCls.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        let (pump, handedOff, uploadSocket) = context.state.withLock { s -> (BodyPump?, Bool, Int32?) in
            s.phase = .delivered
            core.releaseBody(&s)
            s.body = []
            // However the request ended (answered, failed, client gone),
            // its uploaded files go with it.
            s.spool?.removeFiles()
            s.spool = nil
            defer { s.uploadSocket = nil }
            return (s.pump, s.handedOff, s.uploadSocket)
        }
        // Before libmicrohttpd closes the socket.
        if let uploadSocket { context.loop?.hangUps.remove(socket: uploadSocket) }
        if let pump {
            pump.close()
            core.unregister(pump)
        }
        core.unregister(context, waiting: handedOff)
    }

    /// Counts open connections, so a full server can answer 503 at once, and
    /// each address's, for the per-address limit.
    static let connection: MHD_NotifyConnectionCallback = { cls, connection, _, code in
        guard let cls else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        if code == MHD_ConnectionNotificationCode(rawValue: 0) {   // MHD_CONNECTION_NOTIFY_STARTED
            core.connectionOpened()
            core.peers.opened(connection)
            core.firstHeads.begin(connection)
        } else {
            core.firstHeads.end(connection)
            core.nextHeads.end(connection)
            core.connectionClosed()
            core.peers.closed(connection)
        }
    }

    /// Refuses a new connection from an address at its limit.
    static let accept: MHD_AcceptPolicyCallback = { cls, address, _ in
        guard let cls else { return MHDResult.yes }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        guard core.peers.admits(address) else {
            core.metrics?.refusedPerAddress.increment()
            return MHDResult.no
        }
        return MHDResult.yes
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, version, uploadData, uploadSize, conCls in
        guard let cls, let connection, let conCls else { return MHDResult.no }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        let context: RequestContext
        if let raw = conCls.pointee {
            context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        } else {
            context = RequestContext(target: "/", connection: connection)
            core.register(context)
            conCls.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        let size = uploadSize?.pointee ?? 0

        // First call: headers only (never with body bytes, so a piece of
        // body skips this lock). Refuse an announced oversized body before reading it.
        let first = size == 0 && context.state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        if first {
            core.firstHeads.end(connection)
            core.nextHeads.end(connection)
            if core.openConnections.load(ordering: .relaxed) > core.connectionLimit {
                core.metrics?.refusedFull.increment()
                Callbacks.answer(Callbacks.full, on: connection, context: context, core: core, method: method)
                return MHDResult.yes
            }
            if let refusal = core.headCheck.refusal(connection, version: version) {
                guard refusal.direct else {
                    Callbacks.answer(refusal.response, on: connection, context: context, core: core, method: method)
                    return MHDResult.yes
                }
                // libmicrohttpd closes the connection on `no`, after what was written.
                context.state.withLock { $0.phase = .delivered }
                let request = Callbacks.makeRequest(connection, context: context, method: Callbacks.method(method), body: [])
                ResponseWriter.sendDirectly(core.finished(serverAnswer: refusal.response, to: request), on: connection)
                return MHDResult.no
            }
            let length = Callbacks.header(connection, "Content-Length").flatMap(Int.init)
            if let type = Callbacks.header(connection, "Content-Type"), let boundary = MultipartParser.boundary(ofContentType: type) {
                Callbacks.beginUpload(boundary: boundary, length: length, connection: connection, context: context, core: core, method: method)
                return MHDResult.yes
            }
            if let length {
                if length > core.maxBodySize {
                    context.state.withLock { $0.tooLarge = true }
                    Callbacks.answer(Callbacks.tooLarge(core), on: connection, context: context, core: core, method: method)
                } else if length > 0 {
                    // One allocation of the announced size instead of doubling
                    // growth, which would hold up to twice what arrived. Pages
                    // not yet written cost no memory.
                    context.state.withLock { $0.body.reserveCapacity(length) }
                }
            }
            return MHDResult.yes
        }

        // Body chunks: keep up to the limit and within the server's budget for
        // bodies still arriving; past either, discard and answer at the end.
        if size > 0, let uploadData {
            let keepGoing = context.state.withLock { s -> Bool in
                if s.tooLarge || s.overBudget { return Callbacks.discard(size, in: &s, core: core) }
                if s.spool != nil { return Callbacks.spool(UnsafeRawBufferPointer(start: uploadData, count: size), in: &s, core: core) }
                if s.body.count + size > core.maxBodySize {
                    s.tooLarge = true
                    core.releaseBody(&s)
                    return true
                }
                guard core.reserveBody(size, in: &s) else {
                    s.overBudget = true
                    core.releaseBody(&s)
                    return true
                }
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { p in
                    s.body.append(contentsOf: UnsafeBufferPointer(start: p, count: size))
                }
                return true
            }
            uploadSize?.pointee = 0
            return keepGoing ? MHDResult.yes : MHDResult.no
        }

        // Final call.
        let (tooLarge, overBudget, phase, body, upload, uploadSocket) = context.state.withLock {
            s -> (Bool, Bool, RequestContext.Phase, [UInt8], Result<MultipartForm, HTTPError>?, Int32?) in
            let body = s.body
            s.body = []
            // The body is the handler's now: it no longer counts as arriving.
            core.releaseBody(&s)
            defer { s.uploadSocket = nil }
            return (s.tooLarge, s.overBudget, s.phase, body, s.spool?.finish(), s.uploadSocket)
        }
        // All of it came: a client that leaves now shows when the answer is sent.
        if let uploadSocket { context.loop?.hangUps.remove(socket: uploadSocket) }
        if phase == .delivered { return MHDResult.yes }
        if tooLarge || overBudget {
            Callbacks.answer(tooLarge ? Callbacks.tooLarge(core) : Callbacks.busy, on: connection, context: context, core: core, method: method)
            return MHDResult.yes
        }
        if case .failure(let refusal) = upload {
            Callbacks.answer(Callbacks.refused(refusal), on: connection, context: context, core: core, method: method)
            return MHDResult.yes
        }
        var request = Callbacks.makeRequest(connection, context: context, method: Callbacks.method(method), body: body)
        if case .success(let form) = upload { request.multipart = form }
        let isHead = request.method == .head
        if core.refusing.load(ordering: .sequentiallyConsistent) {
            return Callbacks.unavailable(request, on: connection, context: context, core: core)
        }
        // The answer's kind is decided here, once: a response at hand (a
        // cached file, bytes encoded when they last changed) is sent from
        // this thread, with no task and no suspension.
        let answer = core.responder.answer(request)
        if case .immediate(let outcome) = answer {
            context.state.withLock { $0.phase = .delivered }
            ResponseWriter.queue(Answer.sent(outcome, for: request, log: core.log), on: connection, isHead: isHead, context: context, core: core)
            return MHDResult.yes
        }
        context.state.withLock { s in
            s.isHead = isHead
            s.phase = .running
            s.handedOff = true
        }
        core.handOff(context)
        // Checked again once shutdown can see the request: either it is
        // answered here, or shutdown finds it and answers it.
        if core.refusing.load(ordering: .sequentiallyConsistent) {
            return Callbacks.unavailable(request, on: connection, context: context, core: core)
        }
        // Main-actor work (a page) is one main-actor task, which sends its
        // answer itself: nothing waits for it on this thread. A task runs
        // right here until it first suspends; one that never awaits costs no
        // thread hop at all, and one that does comes back to this loop (see
        // `ServerLoop+Executor`).
        switch answer {
        case .mainActor(let work):
            Task { @MainActor in
                core.deliver(Answer.sent(await Result.catching { try await work() }, for: request, log: core.log), to: context)
            }
        case .task(let work):
            Task.immediate(executorPreference: context.loop) {
                core.deliver(Answer.sent(await Result.catching { try await work() }, for: request, log: core.log), to: context)
            }
        case .immediate:
            break
        }
        let inline = context.state.withLock { s -> Response? in
            if let ready = s.ready {
                s.ready = nil
                s.phase = .delivered
                return ready
            }
            s.phase = .suspended
            MHD_suspend_connection(connection)
            return nil
        }
        if let inline {
            ResponseWriter.queue(inline, on: connection, isHead: isHead, context: context, core: core)
        }
        return MHDResult.yes
    }

    /// Answers `503` to a request that arrives while the server stops.
    private static func unavailable(_ request: Request, on connection: OpaquePointer, context: RequestContext, core: ServerCore) -> MHD_Result {
        answer(Response.text("Service Unavailable", status: .serviceUnavailable), to: request, on: connection, context: context, core: core)
        return MHDResult.yes
    }

    /// Sends `answer` to a request whose head is all the server read of it.
    private static func answer(
        _ answer: Response, on connection: OpaquePointer, context: RequestContext, core: ServerCore, method: UnsafePointer<CChar>?
    ) {
        let request = Callbacks.makeRequest(connection, context: context, method: Callbacks.method(method), body: [])
        Callbacks.answer(answer, to: request, on: connection, context: context, core: core)
    }

    /// Sends `answer`, a response the server makes itself instead of asking
    /// the responder, finished by the responder (its security headers, its
    /// access log line); the request is then done, whatever body follows.
    private static func answer(
        _ answer: Response, to request: Request, on connection: OpaquePointer, context: RequestContext, core: ServerCore
    ) {
        context.state.withLock { $0.phase = .delivered }
        ResponseWriter.queue(core.finished(serverAnswer: answer, to: request), on: connection, context: context, core: core)
    }

    /// Starts a `multipart/form-data` body: refused at once when its
    /// announced length is past the upload limit, otherwise spooled as it
    /// arrives (see ``UploadSpool``).
    private static func beginUpload(
        boundary: String, length: Int?, connection: OpaquePointer, context: RequestContext, core: ServerCore,
        method: UnsafePointer<CChar>?
    ) {
        if let length, length > core.uploads.maxRequestBytes {
            context.state.withLock { $0.tooLarge = true }
            let refusal = HTTPError(.payloadTooLarge, "Payload Too Large: the most an upload may bring is \(core.uploads.maxRequestBytes) bytes")
            Callbacks.answer(Callbacks.refused(refusal), on: connection, context: context, core: core, method: method)
            return
        }
        do {
            let spool = try UploadSpool(boundary: boundary, limits: core.uploads, maxFieldBytes: core.maxBodySize, disk: core.uploadDisk, buffers: [core.uploadBuffers, core.bodies])
            // Watched while the body arrives, so a client that leaves with
            // its last bytes is noticed (see ``HangUpWatch``).
            let socket = napkin_connection_fd(connection)
            let watched = context.loop?.hangUps.addUpload(socket: socket) == true
            context.state.withLock { s in
                s.spool = spool
                if watched { s.uploadSocket = socket }
            }
        } catch {
            context.state.withLock { $0.tooLarge = true }
            Callbacks.answer(Callbacks.refused(error), on: connection, context: context, core: core, method: method)
        }
    }

    /// Feeds a piece of a multipart body to its spool (a refused body's
    /// pieces are discarded), and keeps what the spool holds in memory (its
    /// text fields) within the body budget; whether to go on reading.
    private static func spool(_ bytes: UnsafeRawBufferPointer, in s: inout RequestContext.State, core: ServerCore) -> Bool {
        // Through `!`, so that the spool is changed and read where it lies.
        guard s.spool!.take(bytes) else { return discard(bytes.count, in: &s, core: core) }
        let held = s.spool!.heldBytes
        if held > s.reserved, !core.reserveBody(held - s.reserved, in: &s) {
            s.spool!.refuse(HTTPError(.serviceUnavailable, "too many uploads in progress"))
        }
        return true
    }

    /// Counts a piece of a refused body as read and thrown away; whether to
    /// go on reading (libmicrohttpd closes the connection once this says no).
    private static func discard(_ size: Int, in s: inout RequestContext.State, core: ServerCore) -> Bool {
        s.discarded += size
        return s.discarded <= 16 * core.maxBodySize
    }

    /// The answer to a refused multipart body, on a connection then closed
    /// (the rest of the body is not read); a `503` asks to retry.
    private static func refused(_ refusal: HTTPError) -> Response {
        if refusal.status == .serviceUnavailable { return busy }
        var response = Response.text(refusal.message, status: refusal.status)
        response.headers["Connection"] = "close"
        return response
    }

    static func tooLarge(_ core: ServerCore) -> Response {
        var response = Response.text("Payload Too Large: the limit is \(core.maxBodySize) bytes", status: .payloadTooLarge)
        response.headers["Connection"] = "close"
        return response
    }

    /// The answer to a body that arrives while the server already holds its
    /// whole budget of bodies still arriving.
    static var busy: Response { tryAgainShortly("too many uploads in progress") }

    /// The answer on a connection past the server's connection limit.
    static var full: Response { tryAgainShortly("the server is full") }

    /// A `503` that asks the client to come back in a second, on a connection
    /// the server then closes.
    private static func tryAgainShortly(_ reason: String) -> Response {
        var response = Response.text("Service Unavailable: \(reason), try again shortly", status: .serviceUnavailable)
        response.headers["Retry-After"] = "1"
        response.headers["Connection"] = "close"
        return response
    }

    static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The request method, without allocating for the common ones.
    static func method(_ name: UnsafePointer<CChar>?) -> HTTPMethod {
        guard let name else { return .get }
        if strcmp(name, "GET") == 0 { return .get }
        if strcmp(name, "POST") == 0 { return .post }
        if strcmp(name, "HEAD") == 0 { return .head }
        return HTTPMethod(rawValue: String(cString: name))
    }

    static func makeRequest(_ connection: OpaquePointer, context: RequestContext, method: HTTPMethod, body: [UInt8]) -> Request {
        let (raw, path, query) = Request.parseTarget(context.target)
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return MHDResult.yes }
                let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
                headers.pointee.add(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
                return MHDResult.yes
            }, pointer)
        }
        let peer = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
            let length = Int(napkin_peer(connection, buffer.baseAddress, buffer.count))
            guard length > 0 else { return nil }
            return UnsafeRawBufferPointer(start: buffer.baseAddress, count: length).withMemoryRebound(to: UInt8.self) {
                String(decoding: $0, as: UTF8.self)
            }
        }
        return Request(method: method, path: path, rawPath: raw, query: query, headers: headers, body: body, peer: peer)
    }
}

/// libmicrohttpd's `MHD_YES` / `MHD_NO`.
enum MHDResult {
    static let yes = MHD_Result.YES
    static let no = MHD_Result.NO
}
