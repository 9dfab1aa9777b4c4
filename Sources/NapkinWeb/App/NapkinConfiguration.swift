import NapkinHTTP

/// How a ``NapkinApp`` serves its sessions.
public struct NapkinConfiguration: Sendable {
    /// The document around every page.
    public var layout: PageLayout
    /// A session unused for this long is evicted (its tree torn down), and
    /// its record expires: an open stream counts as use, so a session
    /// somebody is looking at keeps its record, and one whose tabs were all
    /// released keeps it for this long after.
    public var sessionIdleTimeout: Duration
    /// A session that served one page and was never used again (no second
    /// request, no open stream) is evicted after this long, and before any
    /// other when the store is full: all a flood of cookieless requests can
    /// make is such sessions. At most ``sessionIdleTimeout``.
    public var newSessionIdleTimeout: Duration
    /// How often idle sessions and unviewed tabs are looked for; `nil` for
    /// sessions every quarter of the shorter idle timeout (at most a
    /// minute) and tabs every eighth of ``tabGracePeriod`` (at most a
    /// second), so a tab goes within a fraction of a second of its grace.
    public var idleSweepInterval: Duration?
    /// At most this many live sessions; a new one evicts the least recently
    /// used, sessions without an open tab first.
    public var maxSessions: Int
    /// At most this many open event streams per session (one per tab); a
    /// new one closes the oldest, whose tab is told it was replaced.
    public var maxStreamsPerSession: Int
    /// A tab nobody views is released after this long: its tree deactivates
    /// (`willResignActive` on every interactor) and is torn down, the
    /// session's last tab too. The grace counts from when the tab's last
    /// event stream closed: the page was left (which napkin's client also
    /// tells the server at once), or hidden long enough that the client gave
    /// its stream back. A tab that never opened a stream waits
    /// ``newTabGracePeriod`` instead. The session and its record stay:
    /// the next page builds a tree again, still signed in, and a page shown
    /// again is reloaded in place by napkin's client. Keep it long enough
    /// for a reload or a stream's reconnect to find the tab.
    public var tabGracePeriod: Duration
    /// A tab whose page never opened its event stream is released after this
    /// long since its last page view, instead of ``tabGracePeriod``: its
    /// script may still be loading (a slow phone, a loaded server), and a
    /// browser without JavaScript opens no stream at all, so this is how
    /// long such a browser keeps its tab after each page. At least
    /// ``tabGracePeriod``.
    public var newTabGracePeriod: Duration
    /// At most this many tabs per session (at least ``maxStreamsPerSession``);
    /// a new one releases the least recently used, tabs without a stream first.
    public var maxTabsPerSession: Int
    /// At most this many tabs across every session; a new one releases the
    /// least recently used tab without a stream. Keep it above the
    /// server's connection limit, which bounds the tabs that have streams.
    public var maxTabs: Int
    /// At most this many bytes of patches queued for one event stream that
    /// its client does not read; past it the stream ends, and the client
    /// reconnects to the whole page as it is then.
    public var maxQueuedBytesPerStream: Int
    /// At most this many bytes queued across every event stream of the app;
    /// a stream whose patch does not fit ends as a slow one does.
    public var maxQueuedStreamBytes: Int
    /// Where session records live: this process by default; a shared store
    /// (Redis) lets sessions survive restarts and move between processes.
    public var sessionRecords: any SessionRecordStore
    /// The app's public origin (`https://ribhouse.example`), when it is
    /// served behind a proxy that does not pass the browser's `Host` on:
    /// form posts must then come from exactly this origin.
    public var publicOrigin: String?
    /// Addresses of proxies whose `X-Forwarded-Host` and `X-Forwarded-Proto`
    /// napkin believes (ignored from anyone else, and when ``publicOrigin``
    /// is set).
    public var trustedProxies: Set<String>
    /// Mark the session cookie `Secure` (serve over HTTPS when this is on).
    public var secureCookies: Bool
    /// The session cookie's name. Browsers send a host's cookies to every
    /// port of it, so two apps on one host (an app and its dashboard) need
    /// two names.
    public var sessionCookieName: String
    /// How long a form post waits for its consequences to be applied
    /// before it answers anyway.
    public var settleTimeout: Duration
    /// How often an idle event stream sends a heartbeat comment. A stream
    /// that carried an event since the last heartbeat skips one, so it is
    /// never silent for more than twice this.
    public var heartbeat: Duration
    /// The `Content-Security-Policy` of every napkin response.
    public var contentSecurityPolicy: String
    /// The body of the 404 page, shown inside the layout.
    public var notFoundBody: HTML
    /// While the app drains (``NapkinApp/drain()``), each event stream's
    /// client reconnects after a random delay of up to this, so a
    /// process's tabs reach the others spread out, not all at once.
    public var drainReconnectSpread: Duration = .seconds(2)
    /// Where the app and its router count what they do (see <doc:Metrics>);
    /// none by default. Serve it with a ``/NapkinHTTP/MetricsEndpoint``
    /// listener on the loopback address, or set ``metricsToken``.
    public var metrics: MetricsRegistry?
    /// A bearer token that opens `GET /metrics` on the app's own listener;
    /// without one (the default) the app's listener serves no metrics.
    public var metricsToken: String?
    /// How napkin's error log (and an ``/NapkinHTTP/AccessLog`` made with
    /// it) writes its lines: text (the default) or one JSON object per line.
    public var logFormat: AccessLog.Format = .text

    /// A configuration with safe defaults: 30-minute idle sessions (5 minutes
    /// for one never used after its first page), 10,000 sessions at most,
    /// 16 tabs per session released 3 seconds after their stream closed (10
    /// after a page view that opened none), 32,768 tabs in all, 1 MiB queued per event stream and 64 MiB across
    /// them all,
    /// a 2-second settle bound, a strict CSP.
    public init(
        layout: PageLayout = PageLayout(title: "napkin"),
        sessionIdleTimeout: Duration = .seconds(30 * 60),
        newSessionIdleTimeout: Duration = .seconds(5 * 60),
        idleSweepInterval: Duration? = nil,
        maxSessions: Int = 10_000,
        maxStreamsPerSession: Int = 8,
        tabGracePeriod: Duration = .seconds(3),
        newTabGracePeriod: Duration = .seconds(10),
        maxTabsPerSession: Int = 16,
        maxTabs: Int = 32_768,
        maxQueuedBytesPerStream: Int = 1 << 20,
        maxQueuedStreamBytes: Int = 64 << 20,
        sessionRecords: any SessionRecordStore = InMemorySessionRecords(),
        publicOrigin: String? = nil,
        trustedProxies: Set<String> = [],
        secureCookies: Bool = false,
        settleTimeout: Duration = .seconds(2),
        heartbeat: Duration = .seconds(15),
        contentSecurityPolicy: String = NapkinConfiguration.strictContentSecurityPolicy,
        notFoundBody: HTML = "<main class=\"napkin-missing\"><h1>Not found</h1><p><a href=\"/\">Home</a></p></main>",
        sessionCookieName: String = WireProtocol.Cookie.session
    ) {
        self.layout = layout
        self.sessionIdleTimeout = sessionIdleTimeout
        self.newSessionIdleTimeout = newSessionIdleTimeout
        self.idleSweepInterval = idleSweepInterval
        self.maxSessions = maxSessions
        self.maxStreamsPerSession = maxStreamsPerSession
        self.tabGracePeriod = tabGracePeriod
        self.newTabGracePeriod = max(newTabGracePeriod, tabGracePeriod)
        self.maxTabsPerSession = max(maxTabsPerSession, maxStreamsPerSession)
        self.maxTabs = max(1, maxTabs)
        self.maxQueuedBytesPerStream = maxQueuedBytesPerStream
        self.maxQueuedStreamBytes = maxQueuedStreamBytes
        self.sessionRecords = sessionRecords
        self.publicOrigin = publicOrigin
        self.trustedProxies = trustedProxies
        self.secureCookies = secureCookies
        self.settleTimeout = settleTimeout
        self.heartbeat = heartbeat
        self.contentSecurityPolicy = contentSecurityPolicy
        self.notFoundBody = notFoundBody
        self.sessionCookieName = sessionCookieName
    }

    /// Scripts, styles, images and connections from the app's own origin
    /// only; no framing; forms post only to the app.
    public static let strictContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
}
