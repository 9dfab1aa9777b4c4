import CMicroHTTPD
@_spi(Napkin) import NapkinSupport
import Synchronization

/// The part of a running server that libmicrohttpd's callbacks reach through
/// their `cls` pointer: the responder, the limits, and the registry of live
/// requests and streams that graceful shutdown walks. Registry state is behind
/// `live`'s lock; `stopping` and the count of live requests are atomics, so a
/// request answered at once never takes the registry's lock.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodySize: Int
    let log: @Sendable (String) -> Void
    let stopping = Atomic<Bool>(false)
    /// Set when shutdown's grace is over: from then on a request is answered
    /// `503` at once. Until then a stopping server still serves requests
    /// that come on connections it already has (each answered with
    /// `Connection: close`), as a proxy may send one down a kept-alive
    /// connection before it learns the server is leaving.
    let refusing = Atomic<Bool>(false)
    /// Bytes of request bodies held while they are still arriving, across
    /// all connections (uploads' write buffers included), against the most
    /// allowed.
    let bodies: ByteBudget
    /// Bytes of uploads' write buffers (see ``UploadSpool``), held while
    /// their files are written, against a few MiB: past it, files are
    /// written as their bytes come, so many uploads at once cost little memory.
    let uploadBuffers = ByteBudget(limit: 2 << 20)
    /// What a multipart post may bring.
    let uploads: UploadLimits
    /// Bytes of uploaded files on disk, over all requests, against `uploads.maxSpooledBytes`.
    let uploadDisk: ByteBudget

    private struct Live {
        /// Requests handed to a handler's task: the ones shutdown may have to answer.
        var waiting: [ObjectIdentifier: RequestContext] = [:]
        var pumps: [ObjectIdentifier: BodyPump] = [:]
    }

    private let live = Locked(Live())
    /// Resolved when the last live request ends after the server began to stop.
    private let drained = Promise<Void>()
    /// Requests from their first line to libmicrohttpd's completed callback.
    private let liveRequests = Atomic<Int>(0)
    /// Set by ``endAccepting()``, once the listener is closed.
    private let acceptEnded = Atomic<Bool>(false)
    /// Resolved when the last connection closes after the listener closed.
    let disconnected = Promise<Void>()

    /// New connections waiting for their first request head, against the
    /// head deadline, at most a quarter of the connection limit.
    let firstHeads: HeadDeadlines
    /// Kept-alive connections waiting for their next request head, against
    /// the idle timeout (however their bytes trickle), at most a quarter of
    /// the connection limit.
    let nextHeads: HeadDeadlines
    /// What a request head must be for the server to read its body.
    let headCheck: RequestHeadCheck

    /// Responses built once for answers sent again and again.
    let responses = ResponseCache()

    /// The open connections napkin serves; more are answered 503.
    let connectionLimit: Int
    /// Connections open right now (libmicrohttpd's connection notifications).
    let openConnections = Atomic<Int>(0)
    /// Connections open per client address, against the per-address limit.
    let peers: PeerConnections
    /// Refusals counted, when the server keeps metrics.
    let metrics: ServerMetrics?

    /// How many connections past the limit are accepted only to be told the
    /// server is full.
    static func headroom(for limit: Int) -> Int {
        min(1024, max(16, limit / 8))
    }

    init(
        responder: any HTTPResponder, maxBodySize: Int, bodyBudget: Int = .max, connectionLimit: Int = .max,
        perIPConnectionLimit: Int = 0, connectionMemoryLimit: Int = 8 * 1024, headTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(30), uploads: UploadLimits = UploadLimits(), metrics: ServerMetrics? = nil,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.metrics = metrics
        // Each table may hold a quarter of the connections, so together
        // they leave half the server to connections that are being served.
        firstHeads = HeadDeadlines(deadline: headTimeout, cap: connectionLimit / 4)
        // A kept-alive connection may idle as long as any (a proxy keeps
        // its upstream connections open for a while), but no longer, even
        // when it trickles its next head.
        nextHeads = HeadDeadlines(deadline: max(headTimeout, idleTimeout), cap: connectionLimit / 4)
        peers = PeerConnections(limit: perIPConnectionLimit)
        headCheck = RequestHeadCheck(memoryLimit: connectionMemoryLimit)
        self.responder = responder
        self.maxBodySize = maxBodySize
        bodies = ByteBudget(limit: bodyBudget)
        self.uploads = uploads
        uploadDisk = ByteBudget(limit: uploads.maxSpooledBytes)
        self.connectionLimit = connectionLimit
        self.log = log
    }

    // MARK: Body budget

    /// Counts `size` more bytes of a body still arriving; `false` when that
    /// would pass the budget.
    func reserveBody(_ size: Int, in state: inout RequestContext.State) -> Bool {
        guard bodies.reserve(size) else { return false }
        state.reserved += size
        return true
    }

    /// Gives back what a body counted against the budget.
    func releaseBody(_ state: inout RequestContext.State) {
        guard state.reserved > 0 else { return }
        bodies.release(state.reserved)
        state.reserved = 0
        state.body = []
    }

    // MARK: Registry

    /// Counts a request from its first line on.
    func register(_ context: RequestContext) {
        liveRequests.add(1, ordering: .sequentiallyConsistent)
    }

    /// Notes a request handed to a handler's task, so shutdown can answer it.
    func handOff(_ context: RequestContext) {
        live.withLock { _ = $0.waiting.updateValue(context, forKey: ObjectIdentifier(context)) }
    }

    /// The request is done; `waiting` when it was handed to a task.
    func unregister(_ context: RequestContext, waiting: Bool) {
        if waiting {
            live.withLock { _ = $0.waiting.removeValue(forKey: ObjectIdentifier(context)) }
        }
        // `waitForDrain` runs once `stopping` is set, and reads the count
        // first: a last request either is seen there or sees `stopping` here.
        guard liveRequests.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
              stopping.load(ordering: .sequentiallyConsistent) else { return }
        drained.resolve(())
    }

    func register(_ pump: BodyPump) {
        live.withLock { _ = $0.pumps.updateValue(pump, forKey: ObjectIdentifier(pump)) }
    }

    func unregister(_ pump: BodyPump) {
        live.withLock { _ = $0.pumps.removeValue(forKey: ObjectIdentifier(pump)) }
    }

    var liveRequestCount: Int { liveRequests.load(ordering: .sequentiallyConsistent) }

    /// Streamed bodies registered now: each from its response until its request completes.
    var streamedBodyCount: Int { live.withLock { $0.pumps.count } }

    // MARK: Shutdown support

    /// Ends every open streamed body with its final chunk.
    func endStreams() {
        let pumps = live.withLock { Array($0.pumps.values) }
        for pump in pumps { pump.end() }
    }

    /// Waits until no request is live, or until `grace` has passed.
    func waitForDrain(grace: Duration) async {
        if liveRequests.load(ordering: .sequentiallyConsistent) == 0 { return }
        _ = await drained.value(within: grace)
    }

    /// A connection opened (libmicrohttpd's notification).
    func connectionOpened() {
        openConnections.add(1, ordering: .relaxed)
    }

    /// A connection closed (libmicrohttpd's notification).
    func connectionClosed() {
        // As with requests: `waitForConnections` reads the count after
        // `acceptEnded` is set, so the last close is seen there or sees it.
        guard openConnections.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
              acceptEnded.load(ordering: .sequentiallyConsistent) else { return }
        disconnected.resolve(())
    }

    /// Notes that the listener is closed: every connection the server will
    /// ever have is counted now. Until then the count may touch zero and
    /// rise again (a loop not yet quiesced accepts a proxy's new
    /// connection), so only from here on does zero mean all are gone.
    func endAccepting() {
        acceptEnded.store(true, ordering: .sequentiallyConsistent)
    }

    /// Waits until no connection is open, or until `limit` has passed; call
    /// it after ``endAccepting()``. A stopping server closes each connection
    /// after its response, so a proxy's kept-alive connections, on which
    /// requests may still come, go one by one; a request on one is served
    /// until then.
    func waitForConnections(within limit: Duration) async {
        guard limit > .zero, openConnections.load(ordering: .sequentiallyConsistent) > 0 else { return }
        _ = await disconnected.value(within: limit)
    }

    /// Answers every request still waiting for its handler with 503, and ends every
    /// stream, so that no connection stays suspended when the daemon stops.
    func forceAll() {
        refusing.store(true, ordering: .sequentiallyConsistent)
        let (requests, pumps) = live.withLock { (Array($0.waiting.values), Array($0.pumps.values)) }
        let unavailable = Response.text("Service Unavailable", status: .serviceUnavailable)
        for context in requests {
            deliver(unavailable, to: context)
        }
        for pump in pumps { pump.end() }
    }

    // MARK: Running handlers

    /// `answer`, a response the server makes itself instead of asking for
    /// one (a refused head, a body past its limit, a full server), finished
    /// by the responder's middleware (its security headers, its access log
    /// line) through ``Request/serverAnswer``. A responder that does not
    /// answer such a request at once with that status gets `answer` sent as
    /// it is: no route runs for a request the server refused.
    func finished(serverAnswer answer: Response, to request: Request) -> Response {
        var request = request
        request.serverAnswer = answer
        guard case .immediate(.success(let finished)) = responder.answer(request), finished.status == answer.status else {
            return answer
        }
        return finished
    }

    /// Hands a finished response to the connection: inline if the access handler is
    /// still on the stack, otherwise queue it and resume the suspended connection.
    /// Once a response was queued (shutdown forced a 503 onto the suspended
    /// connection, say) or the client left, later ones are dropped; while the
    /// access handler is still on the stack, the last one delivered is sent.
    func deliver(_ response: Response, to context: RequestContext) {
        let (queueNow, isHead) = context.state.withLock { s -> (Bool, Bool) in
            switch s.phase {
            case .running:
                s.ready = response
                return (false, s.isHead)
            case .suspended:
                s.phase = .delivered
                return (true, s.isHead)
            case .receiving, .delivered:
                return (false, s.isHead)
            }
        }
        if queueNow, let connection = context.connectionPointer {
            ResponseWriter.queue(response, on: connection, isHead: isHead, context: context, core: self)
            MHD_resume_connection(connection)
            context.loop?.wake()
        } else if !queueNow, context.state.withLock({ $0.phase == .delivered }) {
            // Answered already (shutdown forced a 503, or the client left): never sent.
            response.body.discard()
        }
    }
}
