/// How an ``HTTPServer`` listens and what it allows. The defaults are safe for
/// an app facing the open internet behind nothing at all; loosen them knowingly.
public struct ServerConfiguration: Sendable {
    /// The address to bind. `127.0.0.1` by default, so nothing is exposed by accident;
    /// use `0.0.0.0` (or `::`) to accept outside connections.
    public var host: String
    /// The port; `0` picks a free ephemeral port (read it from ``HTTPServer/port`` after start).
    public var port: Int
    /// Event-loop threads, each running a libmicrohttpd daemon over its share of the
    /// connections (they share one listening socket), waiting on epoll on Linux and on
    /// `poll` elsewhere. Handlers start on these threads and should not run long there:
    /// connections are suspended while handlers await.
    public var workerThreads: Int
    /// The most open connections napkin serves. Idle event streams count, so size it for
    /// them (the default fits 10,000 live tabs with room to spare). Past it, a few more
    /// connections (an eighth, 16 to 1,024) are accepted only to be answered `503` with
    /// `Retry-After` and closed, so a full server says so at once instead of leaving new
    /// clients waiting; past those, new connections wait in the listen queue. The process
    /// file-descriptor limit is raised to fit at start.
    public var connectionLimit: Int
    /// The most connections from one IP address (`0`: no limit). Behind a reverse proxy every
    /// client shares the proxy's address: set `0` there.
    public var perIPConnectionLimit: Int
    /// How long a connection may sit idle (no bytes in or out) before it is closed.
    /// libmicrohttpd's own default is *never*, which lets slow clients hold sockets forever.
    /// Suspended connections (handlers running, idle event streams) are not timed out.
    public var connectionTimeout: Duration
    /// How long a connection may take to send a whole request head (request line
    /// and header fields), however steadily its bytes come: the idle
    /// ``connectionTimeout`` starts again on every byte, so without this a client
    /// trickling its head a byte at a time keeps its connection forever. A
    /// kept-alive connection gets ``connectionTimeout`` (if longer) for its next
    /// head, however it trickles. New connections waiting for their first head,
    /// and kept-alive ones waiting for their next, may each fill at most a
    /// quarter of ``connectionLimit``: past that, the one waiting longest is
    /// closed, so a flood of trickling clients cannot keep others out.
    public var requestHeadTimeout: Duration
    /// Bytes of libmicrohttpd's per-connection memory pool. It holds the request line and
    /// headers and the response's header buffer, and it is zeroed on every request, so it is
    /// sized small: 8 KiB keeps an idle event stream near 10 KiB resident (the 32 KiB default
    /// costs about 22 KiB) and still fits about 6 KiB of request headers — larger ones get 431.
    public var connectionMemoryLimit: Int
    /// The largest request body accepted; larger bodies are answered 413 (up front when
    /// `Content-Length` says so, otherwise as soon as the limit is passed).
    public var maxRequestBodySize: Int
    /// The most bytes of request bodies held at once while they are still
    /// arriving, over all connections. A body that would pass it is
    /// discarded and answered 503 with `Retry-After`, so slow uploads cannot
    /// fill memory (each may hold up to ``maxRequestBodySize``).
    public var maxBufferedBodyBytes: Int
    /// What a `multipart/form-data` post may bring: its files go to
    /// temporary files as they arrive (never held whole in memory), its
    /// text fields count against ``maxRequestBodySize`` and
    /// ``maxBufferedBodyBytes`` like any body.
    public var uploads: UploadLimits
    /// How often freed memory is handed back to the operating system (glibc's
    /// `malloc_trim`, and a purge of jemalloc's arenas in a process that links
    /// it), so the process comes back down after a burst; `nil` never.
    public var memoryTrimInterval: Duration?
    /// How long ``HTTPServer/shutdown()`` waits for in-flight requests and open connections
    /// before answering what is left 503.
    public var shutdownGracePeriod: Duration
    /// Where the server counts its connections (open, refused at a limit),
    /// the request bodies it holds and the process's resident memory; none
    /// by default. Requests are counted by the router
    /// (``HTTPRouter/measure(in:)``).
    public var metrics: MetricsRegistry?

    /// A configuration; every parameter has the safe default documented on its property.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        workerThreads: Int = 2,
        connectionLimit: Int = 16_384,
        perIPConnectionLimit: Int = 256,
        connectionTimeout: Duration = .seconds(30),
        requestHeadTimeout: Duration = .seconds(10),
        connectionMemoryLimit: Int = 8 * 1024,
        maxRequestBodySize: Int = 1 << 20,
        maxBufferedBodyBytes: Int = 64 << 20,
        shutdownGracePeriod: Duration = .seconds(10),
        memoryTrimInterval: Duration? = .seconds(5),
        uploads: UploadLimits = UploadLimits()
    ) {
        self.host = host
        self.port = port
        self.workerThreads = workerThreads
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeout = connectionTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxRequestBodySize = maxRequestBodySize
        self.maxBufferedBodyBytes = maxBufferedBodyBytes
        self.shutdownGracePeriod = shutdownGracePeriod
        self.memoryTrimInterval = memoryTrimInterval
        self.uploads = uploads
    }
}
