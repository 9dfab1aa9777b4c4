import CMicroHTTPD
import Dispatch
import Foundation
@_spi(Napkin) import NapkinSupport
import Synchronization
@_spi(Napkin) import NapkinSupport

/// An HTTP/1.1 server: libmicrohttpd on the wire, Swift concurrency in the handlers.
///
/// napkin's event-loop threads, each running a libmicrohttpd daemon, parse
/// requests and ask the responder how each is answered (an ``Answer``). An
/// answer at hand is sent from the loop's thread. Main-actor work (a page)
/// runs as one main-actor task that sends its own answer. Other work runs
/// as a task that starts on the loop's thread and prefers the loop as its
/// executor, so after an `await` it comes back there; its connection is
/// suspended meanwhile, so no thread waits on slow handlers or idle event
/// streams. Long synchronous work in a handler therefore holds up its
/// loop's other connections: run it in a task of its own (`Task.detached`).
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/") { _ in .text("Hello, napkin!") }
/// let server = HTTPServer(configuration: .init(port: 8080), responder: router)
/// try await server.runUntilSignalled()
/// ```
public final class HTTPServer: Sendable {
    private struct Running {
        var loops: [ServerLoop] = []
        var port = 0
        var core: ServerCore?
        var stopped = false
        var trimmer: Task<Void, Never>?
        /// The loops' lag probes, when the server keeps metrics.
        var lagProbes: [Task<Void, Never>] = []
    }

    private let configuration: ServerConfiguration
    private let responder: any HTTPResponder
    private let log: @Sendable (String) -> Void
    private let running = Mutex(Running())
    /// Resolved once ``shutdown()`` has closed the listening socket (for tests).
    let listenerClosed = Promise<Void>()

    /// A server for `responder`; `log` receives handler errors (default: standard error).
    public init(configuration: ServerConfiguration = .init(), responder: any HTTPResponder, log: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        self.responder = responder
        self.log = log ?? AccessLog.standardError
    }

    /// Bytes of request bodies the server holds right now while they arrive.
    var bufferedBodyBytes: Int {
        running.withLock { $0.core?.bodies.used ?? 0 }
    }

    /// Streamed bodies (event streams) the server holds right now.
    var streamedBodyCount: Int {
        running.withLock { $0.core?.streamedBodyCount ?? 0 }
    }

    /// Answers the server keeps built to send again (``ResponseCache``).
    var keptResponseCount: Int {
        running.withLock { $0.core?.responses.count ?? 0 }
    }

    /// Connections open right now (0 before ``start()`` or after ``shutdown()``).
    var openConnectionCount: Int {
        running.withLock { $0.core?.openConnections.load(ordering: .relaxed) ?? 0 }
    }

    /// The running loops (none before ``start()`` or after ``shutdown()``).
    var loops: [ServerLoop] { running.withLock { $0.loops } }

    /// The bound port, valid after ``start()`` (with port `0` this is the ephemeral port chosen).
    public var port: Int { running.withLock { $0.port } }

    /// Binds and starts serving. Throws ``HTTPServerError`` when the address cannot be bound
    /// (port taken, bad host) or the server was already started.
    public func start() throws {
        try running.withLock { state in
            guard state.loops.isEmpty, !state.stopped else { throw HTTPServerError("the server was already started") }
            signal(SIGPIPE, SIG_IGN)
            // Past `connectionLimit` a few more connections are accepted, only
            // to be answered 503 at once: a full server says so instead of
            // leaving new clients waiting in the listen queue.
            let limit = max(1, configuration.connectionLimit)
            let acceptLimit = limit + ServerCore.headroom(for: limit)
            HTTPServer.raiseFileLimit(to: acceptLimit + 256)
            let metrics = configuration.metrics.map { ServerMetrics(registry: $0) }
            let core = ServerCore(
                responder: responder, maxBodySize: configuration.maxRequestBodySize,
                bodyBudget: configuration.maxBufferedBodyBytes, connectionLimit: limit,
                perIPConnectionLimit: configuration.perIPConnectionLimit,
                connectionMemoryLimit: HTTPServer.memoryLimit(configuration),
                headTimeout: configuration.requestHeadTimeout, idleTimeout: configuration.connectionTimeout,
                uploads: configuration.uploads, metrics: metrics, log: log)
            if let registry = configuration.metrics { ServerMetrics.sample(self, in: registry) }
            let cls = Unmanaged.passRetained(core).toOpaque()
            var daemons: [OpaquePointer] = []
            var wakeups: [Wakeup] = []
            let share = HTTPServer.share(of: acceptLimit, configuration)
            do {
                daemons = try HTTPServer.startDaemons(configuration, share: share, cls: cls)
                // Everything that can fail, before any loop's thread starts.
                for _ in daemons { wakeups.append(try ServerLoop.makeWakeup()) }
            } catch {
                for daemon in daemons { MHD_stop_daemon(daemon) }
                Unmanaged<ServerCore>.fromOpaque(cls).release()
                throw error
            }
            state.loops = zip(daemons, wakeups).map {
                ServerLoop(daemon: $0, connectionLimit: share, wakeup: $1, heads: [core.firstHeads, core.nextHeads])
            }
            state.lagProbes = metrics?.probeLag(of: state.loops) ?? []
            state.port = Int(napkin_daemon_port(daemons[0]))
            state.core = core
            MemoryReturn.pinThreshold
            if let interval = configuration.memoryTrimInterval {
                state.trimmer = MemoryReturn.trimPeriodically(every: interval)
            }
        }
    }

    /// The connections each loop's daemon may hold: a full daemon stops
    /// accepting and leaves new connections to the others.
    private static func share(of acceptLimit: Int, _ configuration: ServerConfiguration) -> Int {
        let count = max(1, configuration.workerThreads)
        return (acceptLimit + count - 1) / count
    }

    /// One daemon per loop thread: the first binds the address, the others
    /// share its listening socket, and each takes `share` of the connections.
    private static func startDaemons(_ configuration: ServerConfiguration, share: Int, cls: UnsafeMutableRawPointer) throws -> [OpaquePointer] {
        let count = max(1, configuration.workerThreads)
        let timeout = max(1, Int(configuration.connectionTimeout.components.seconds))
        var daemons: [OpaquePointer] = []
        for index in 0..<count {
            errno = 0
            let daemon = napkin_start_daemon(
                ServerLoop.backend == .epoll ? 1 : 0, configuration.host, UInt16(clamping: configuration.port),
                index == 0 ? -1 : Int32(napkin_daemon_listen_fd(daemons[0])),
                UInt32(share), UInt32(timeout), memoryLimit(configuration), 1024,
                Callbacks.accept, cls, Callbacks.access, cls, Callbacks.completed, cls,
                Callbacks.uriLog, cls, Callbacks.connection, cls)
            guard let daemon else {
                let reason = errno != 0 ? String(cString: strerror(errno)) : "libmicrohttpd refused to start"
                for started in daemons { MHD_stop_daemon(started) }
                throw HTTPServerError("cannot listen on \(configuration.host):\(configuration.port): \(reason)")
            }
            daemons.append(daemon)
        }
        return daemons
    }

    /// Bytes of each connection's libmicrohttpd memory pool.
    private static func memoryLimit(_ configuration: ServerConfiguration) -> Int {
        max(4096, configuration.connectionMemoryLimit)
    }

    /// Stops gracefully: stop accepting, end event streams, let in-flight requests finish
    /// and open connections close (each after its response; requests that still come on
    /// them are served) within the grace period (then answer them 503), resume every
    /// suspended connection, stop libmicrohttpd, and return. Safe to call more than once.
    public func shutdown() async {
        let taken = running.withLock { state -> ([ServerLoop], ServerCore)? in
            guard !state.loops.isEmpty, let core = state.core else { return nil }
            state.trimmer?.cancel()
            for probe in state.lagProbes { probe.cancel() }
            defer { state.loops = []; state.core = nil; state.stopped = true; state.trimmer = nil; state.lagProbes = [] }
            return (state.loops, core)
        }
        guard let (loops, core) = taken else { return }
        core.stopping.store(true, ordering: .sequentiallyConsistent)
        var listener: Int32 = -1
        for loop in loops {
            let returned = await loop.quiesce()
            if listener < 0 { listener = returned }
        }
        // Closed at once, not at the end: a connection to the port is then
        // refused (a proxy tries its next upstream at once) instead of
        // waiting in a backlog nobody accepts from. Idle kept-alive
        // connections go too; busy ones close after their response
        // (`Connection: close` while stopping).
        if listener >= 0 { close(listener) }
        core.endAccepting()
        core.nextHeads.shutDownAll()
        listenerClosed.resolve(())
        core.endStreams()
        let deadline = ContinuousClock.now + configuration.shutdownGracePeriod
        await core.waitForDrain(grace: configuration.shutdownGracePeriod)
        await core.waitForConnections(within: deadline - .now)
        core.forceAll()
        // Let forced responses reach their clients before the daemon closes every socket.
        if core.liveRequestCount > 0 {
            await core.waitForDrain(grace: .seconds(1))
        }
        for loop in loops {
            await loop.stop()
            MHD_stop_daemon(loop.daemonPointer)
        }
        Unmanaged.passUnretained(core).release()
    }

    /// Starts (if needed), serves until SIGINT or SIGTERM, then shuts down gracefully.
    ///
    /// While it waits, the two signals are caught instead of killing the process; once
    /// one arrives their default action is restored, so a second Ctrl-C during a slow
    /// shutdown still ends the process at once.
    public func runUntilSignalled() async throws {
        try await runUntilSignalled(ready: nil)
    }

    /// As ``runUntilSignalled()``, running `draining` once a signal arrives
    /// and before the server shuts down: the app stops reporting ready and
    /// tells its event streams to reconnect elsewhere (NapkinWeb's `NapkinApp.drain()`),
    /// then the server stops accepting and lets in-flight requests finish.
    public func runUntilSignalled(draining: @escaping @Sendable () async -> Void) async throws {
        try await runUntilSignalled(ready: nil, draining: draining)
    }

    /// As ``runUntilSignalled()``, calling `ready` once the signal handlers are in place (for tests).
    func runUntilSignalled(ready: (@Sendable () -> Void)?, draining: (@Sendable () async -> Void)? = nil) async throws {
        if running.withLock({ $0.loops.isEmpty && !$0.stopped }) { try start() }
        let signals = [SIGINT, SIGTERM]
        var sources: [any DispatchSourceSignal] = []
        let signalled = Promise<Void>()
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { signalled.resolve(()) }
            source.resume()
            sources.append(source)
        }
        ready?()
        await signalled.value()
        for source in sources { source.cancel() }
        for sig in signals { signal(sig, SIG_DFL) }
        await draining?()
        await shutdown()
    }

    private static func raiseFileLimit(to wanted: Int) {
        #if os(Linux)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        let target = min(rlim_t(wanted), limit.rlim_max)
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(resource, &limit)
        }
    }
}
