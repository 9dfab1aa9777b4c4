import NapkinHTTP

/// Health, readiness and draining: what a load balancer asks a process, and
/// how a process leaves a cluster without failing a request.
///
/// `GET /healthz` answers `200` while the process answers at all.
/// `GET /readyz` answers `200` while it should get traffic: it is not
/// draining, and its session store answered lately (Redis, when
/// configured); else `503`. Both are answered on the server's loop, ahead
/// of every middleware: no session, no access log line.
///
/// ``drain()`` (on SIGTERM, through
/// ``/NapkinHTTP/HTTPServer/runUntilSignalled(draining:)``) turns `/readyz`
/// to `503` and tells every event stream to reconnect after a random
/// delay; its client then reaches another process, which rebuilds the
/// session from its record and the tab at its page.
extension NapkinApp {
    /// The liveness probe's path.
    public nonisolated static let healthPath = "/healthz"
    /// The readiness probe's path.
    public nonisolated static let readyPath = "/readyz"

    /// Whether the app should get traffic: not draining, and its session
    /// store reachable (``/NapkinStorage/SessionRecordStore/isReachable``).
    public nonisolated var isReady: Bool {
        !isDraining && configuration.sessionRecords.isReachable
    }

    /// Whether ``drain()`` was called.
    public nonisolated var isDraining: Bool {
        drainStarted.load(ordering: .acquiring)
    }

    /// Starts leaving: ``isReady`` turns `false` for good, and every open
    /// event stream gets a ``WireProtocol/Event/drain`` event (reconnect
    /// after a random delay of up to
    /// ``NapkinConfiguration/drainReconnectSpread``) and ends. A stream
    /// asked for from now on gets the same at once. Sessions and their
    /// records stay: requests still in flight finish, and the clients'
    /// next requests rebuild them wherever they land.
    public func drain() {
        guard !drainStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let frame = drainFrame
        for session in store.all { session.endStreams(with: frame) }
    }

    /// The event that sends a stream's client elsewhere: its data is the
    /// spread of the random delay, in milliseconds.
    nonisolated var drainFrame: EventFrame {
        let spread = configuration.drainReconnectSpread.components
        let milliseconds = spread.seconds * 1000 + spread.attoseconds / 1_000_000_000_000_000
        return EventFrame(event: WireProtocol.Event.drain, data: String(max(0, milliseconds)))
    }

    /// A stream asked for while draining: the drain event, then its end.
    nonisolated func drainedStream() -> Response {
        let stream = Channel<EventFrame>(policy: .finishWhenFull(capacity: 1))
        _ = stream.offer(drainFrame)
        stream.finish()
        return .eventStream(frames: stream, heartbeat: configuration.heartbeat)
    }

    /// Adds `/healthz` and `/readyz` to `router` (see ``NapkinApp``'s
    /// health and readiness).
    nonisolated func mountProbes(on router: inout HTTPRouter) {
        router.probe(Self.healthPath) { _ in Self.probeAnswer("ok", status: .ok) }
        router.probe(Self.readyPath) { [self] _ in
            if isDraining { return Self.probeAnswer("draining", status: .serviceUnavailable) }
            guard configuration.sessionRecords.isReachable else {
                return Self.probeAnswer("session store unreachable", status: .serviceUnavailable)
            }
            return Self.probeAnswer("ready", status: .ok)
        }
    }

    private nonisolated static func probeAnswer(_ text: String, status: HTTPStatus) -> Response {
        var response = Response.text(text + "\n", status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
