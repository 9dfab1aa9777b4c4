import Foundation
import NapkinStorage
@_spi(Napkin) import NapkinSupport
import napkin

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The subscribing side of a ``RedisBus``: one connection in subscribe mode,
/// serving every channel, and the thread that owns it.
///
/// Streams register here; the thread `SUBSCRIBE`s and `UNSUBSCRIBE`s as
/// channels gain their first stream and lose their last, reads in a loop and
/// yields each message to its channel's streams. When the connection fails
/// it reconnects with backoff, subscribes every channel again, and once a
/// channel's subscription is back yields ``BusDelivery/reconnected`` to its
/// streams. The thread starts with the first subscription.
final class BusSubscriber: Sendable {
    private struct Entry {
        let continuation: AsyncStream<BusDelivery>.Continuation
        /// Lived through a lost connection (or began during one): gets
        /// `.reconnected` once its channel is subscribed again.
        var owesReconnected = false
    }

    fileprivate struct Waiter {
        let channel: String
        let subscribed: Promise<Void>
    }

    private struct State {
        /// Live streams by Redis channel name, then by id.
        var channels: [String: [UInt64: Entry]] = [:]
        var nextID: UInt64 = 0
        /// Set when `channels` gains or loses a channel: the thread subscribes again.
        var changed = false
        /// Subscribers waiting for their channel's subscription, not yet seen by the thread.
        var newWaiters: [Waiter] = []
        var started = false
        var stopping = false
    }

    // Shared by subscribers, terminating streams and the thread; a pthread
    // lock (`Locked`) so ThreadSanitizer sees it.
    private let state = Locked(State())
    /// Resolved once the thread has ended (or when it never started and was stopped).
    private let exited = Promise<Void>()
    private let wake = Wakeup.make()
    private let configuration: RedisConfiguration
    private let open: @Sendable (_ channel: String, _ payload: [UInt8]) -> [UInt8]?

    /// Reconnection backoff: the first wait, and the longest.
    static let firstBackoff: Duration = .milliseconds(50)
    static let longestBackoff: Duration = .seconds(1)
    /// A quiet connection is checked with a `PING` this often.
    static let pingInterval: Duration = .seconds(5)

    /// A subscriber to the server of `configuration`, delivering what
    /// `open` makes of each message on a Redis channel (nothing, when it
    /// answers `nil`).
    init(configuration: RedisConfiguration, open: @escaping @Sendable (_ channel: String, _ payload: [UInt8]) -> [UInt8]?) {
        self.configuration = configuration
        self.open = open
    }

    /// A stream of what is published on Redis channel `channel`, returned
    /// once the server has confirmed the subscription (or at once, when it
    /// cannot be reached: the stream then gets `.reconnected` later).
    func subscribe(to channel: String) async -> AsyncStream<BusDelivery> {
        let (stream, continuation) = AsyncStream<BusDelivery>.makeStream()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id, from: channel) }
        let ready = Promise<Void>()
        let (accepted, start) = state.withLock { state -> (Bool, Bool) in
            guard !state.stopping else { return (false, false) }
            if state.channels[channel] == nil { state.changed = true }
            state.channels[channel, default: [:]][id] = Entry(continuation: continuation)
            state.newWaiters.append(Waiter(channel: channel, subscribed: ready))
            let start = !state.started
            state.started = true
            return (true, start)
        }
        if accepted {
            if start {
                Thread.detachNewThread { [self] in
                    Thread.current.name = "napkin redis bus"
                    run()
                }
            } else {
                wake.wake()
            }
            await ready.value()
        }
        if state.withLock({ $0.stopping }) { continuation.finish() }
        return stream
    }

    /// Asks the thread to end every stream, close the connection and stop.
    func stop() {
        let neverStarted = state.withLock { state in
            state.stopping = true
            return !state.started
        }
        if neverStarted { exited.resolve(()) }
        wake.wake()
    }

    /// Stops, and returns once the thread has ended.
    func stopAndWait() async {
        stop()
        await exited.value()
    }

    private func remove(_ id: UInt64, from channel: String) {
        let changed = state.withLock { state -> Bool in
            guard state.channels[channel]?.removeValue(forKey: id) != nil else { return false }
            if state.channels[channel]?.isEmpty == true {
                state.channels[channel] = nil
                state.changed = true
                return true
            }
            return false
        }
        if changed { wake.wake() }
    }

    // MARK: The subscriber thread

    private func run() {
        var session = Session()
        // Waits between attempts double up to `longestBackoff`, and start
        // over only once a connection has answered: a server that accepts
        // connections and then fails them (one asking for a password) is
        // retried at a walk, not in a loop.
        var backoff = Self.firstBackoff
        while !state.withLock({ $0.stopping }) {
            do {
                if session.connection == nil {
                    session.start(try RedisConnection(configuration))
                    state.withLock { $0.changed = true }
                }
                try step(&session)
                if session.answered { backoff = Self.firstBackoff }
            } catch {
                lost(&session)
                sleep(for: backoff)
                backoff = min(backoff * 2, Self.longestBackoff)
            }
        }
        finish(&session)
    }

    /// Per-connection bookkeeping, touched only by the thread.
    private struct Session {
        var connection: RedisConnection?
        /// Channels asked for on this connection (and not unsubscribed since).
        var requested: Set<String> = []
        /// `SUBSCRIBE`s sent, and acknowledged, per channel on this connection.
        var sent: [String: Int] = [:]
        var acknowledged: [String: Int] = [:]
        /// Subscribers waiting for the acknowledgement numbered `target`.
        var pending: [(waiter: Waiter, target: Int)] = []
        var lastHeard = ContinuousClock.now
        var pingSentAt: ContinuousClock.Instant?
        /// Whether this connection has answered anything yet.
        var answered = false

        mutating func start(_ connection: RedisConnection) {
            self.connection = connection
            answered = false
            requested = []
            sent = [:]
            acknowledged = [:]
            lastHeard = .now
            pingSentAt = nil
        }
    }

    /// One turn: subscribe as needed, wait for the socket or a wake, read.
    private func step(_ session: inout Session) throws {
        guard let connection = session.connection else { return }
        try reconcile(&session, connection)
        var entries = [
            pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&entries, 2, 1000)
        // The next turn's `reconcile` looks at what a wake was for.
        wake.consume(readable: entries[1].revents != 0)
        if ready > 0 && entries[0].revents != 0 {
            try connection.readAvailable()
            session.lastHeard = .now
            session.pingSentAt = nil
            while let reply = try connection.bufferedReply() {
                try handle(reply, &session)
                session.answered = true
            }
        } else if let sentAt = session.pingSentAt {
            if ContinuousClock.now - sentAt > configuration.commandTimeout {
                throw RedisError.unreachable("Redis at \(configuration.host):\(configuration.port) is unreachable: timed out")
            }
        } else if ContinuousClock.now - session.lastHeard > Self.pingInterval {
            try connection.send([[Array("PING".utf8)]])
            session.pingSentAt = .now
        }
    }

    /// Subscribes channels that gained streams (and again for each new
    /// subscriber, so it has an acknowledgement to wait for), and
    /// unsubscribes channels that lost their last stream.
    private func reconcile(_ session: inout Session, _ connection: RedisConnection) throws {
        guard let (desired, waiters) = state.withLock({ state -> (Set<String>, [Waiter])? in
            guard state.changed || !state.newWaiters.isEmpty else { return nil }
            state.changed = false
            let waiters = state.newWaiters
            state.newWaiters = []
            return (Set(state.channels.keys), waiters)
        }) else { return }

        var subscribe = desired.subtracting(session.requested)
        var gone: [Waiter] = []
        for waiter in waiters {
            if desired.contains(waiter.channel) { subscribe.insert(waiter.channel) } else { gone.append(waiter) }
        }
        let unsubscribe = session.requested.subtracting(desired)
        var commands: [[[UInt8]]] = []
        if !subscribe.isEmpty { commands.append([Array("SUBSCRIBE".utf8)] + subscribe.sorted().map { Array($0.utf8) }) }
        if !unsubscribe.isEmpty { commands.append([Array("UNSUBSCRIBE".utf8)] + unsubscribe.sorted().map { Array($0.utf8) }) }
        for channel in subscribe { session.sent[channel, default: 0] += 1 }
        session.requested.formUnion(subscribe)
        session.requested.subtract(unsubscribe)
        for waiter in waiters where desired.contains(waiter.channel) {
            session.pending.append((waiter, session.sent[waiter.channel] ?? 0))
        }
        for waiter in gone { waiter.subscribed.resolve(()) }
        if !commands.isEmpty { try connection.send(commands) }
    }

    private func handle(_ reply: RedisReply, _ session: inout Session) throws {
        if case .error(let message) = reply { throw RedisError.server(message) }
        guard case .array(let parts) = reply, parts.count >= 2, let kind = parts[0].string else { return }
        switch kind {
        case "message":
            guard parts.count == 3, let channel = parts[1].string, let sealed = parts[2].bytes,
                let payload = open(channel, sealed)
            else { return }
            let continuations = state.withLock { state in state.channels[channel]?.values.map(\.continuation) ?? [] }
            for continuation in continuations { continuation.yield(.message(payload)) }
        case "subscribe":
            guard let channel = parts[1].string else { return }
            session.acknowledged[channel, default: 0] += 1
            let count = session.acknowledged[channel] ?? 0
            var ready: [Waiter] = []
            session.pending.removeAll { entry in
                guard entry.waiter.channel == channel, entry.target <= count else { return false }
                ready.append(entry.waiter)
                return true
            }
            let owed = state.withLock { state -> [AsyncStream<BusDelivery>.Continuation] in
                guard var entries = state.channels[channel] else { return [] }
                var owed: [AsyncStream<BusDelivery>.Continuation] = []
                for (id, entry) in entries where entry.owesReconnected {
                    owed.append(entry.continuation)
                    entries[id]?.owesReconnected = false
                }
                state.channels[channel] = entries
                return owed
            }
            for continuation in owed { continuation.yield(.reconnected) }
            for waiter in ready { waiter.subscribed.resolve(()) }
        default:
            break // unsubscribe acknowledgements, pongs
        }
    }

    /// The connection is gone (or never came): every stream is owed a
    /// `.reconnected`, and nobody waits for a subscription that cannot come.
    private func lost(_ session: inout Session) {
        session.connection = nil
        let waiters = state.withLock { state -> [Waiter] in
            for channel in state.channels.keys {
                for id in state.channels[channel]!.keys { state.channels[channel]![id]!.owesReconnected = true }
            }
            let waiters = state.newWaiters
            state.newWaiters = []
            return waiters
        }
        for waiter in waiters + session.pending.map(\.waiter) { waiter.subscribed.resolve(()) }
        session.pending = []
    }

    /// Waits `duration`, or less if woken (a new subscriber, a stop).
    private func sleep(for duration: Duration) {
        wake.wait(timeout: duration)
    }

    private func finish(_ session: inout Session) {
        session.connection = nil
        let (streams, waiters) = state.withLock { state in
            let streams = state.channels.values.flatMap { $0.values.map(\.continuation) }
            state.channels = [:]
            let waiters = state.newWaiters
            state.newWaiters = []
            return (streams, waiters)
        }
        for waiter in waiters + session.pending.map(\.waiter) { waiter.subscribed.resolve(()) }
        session.pending = []
        for continuation in streams { continuation.finish() }
        exited.resolve(())
    }
}
