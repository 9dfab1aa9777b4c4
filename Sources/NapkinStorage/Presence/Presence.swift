import Foundation
@_spi(Napkin) import NapkinSupport
import napkin

/// Who is here: keys (a diner's name) that napkins track while they are
/// active, gathered across the app's processes — napkin's Phoenix Presence.
///
/// ```swift
/// let diners = Presence<Diner>(topic: "diners", bus: bus)
/// await diners.start()
///
/// // in an interactor's didBecomeActive():
/// await diners.track(user.name, Diner(since: .now), by: self)
/// observe(await diners.present.subscribe()) { [presenter] present in await presenter.show(present) }
/// ```
///
/// Tracking ends when the interactor resigns active, with no code of the
/// app's (the interactor keeps it, like a bound task, without a task). A
/// key is one entry however many napkins, tabs or processes track it, and
/// leaves when the last of them ends. A tree nobody views
/// (``/napkin/Interactable/isViewed``) tracks nothing, so a program asking
/// for a page's JSON never shows up.
///
/// Each process is the authority on its own trackers. It tells the others
/// of joins and leaves as they happen, and sends a heartbeat; a process not
/// heard from for `timeout` is dropped, entries and all, so a process that
/// dies (`kill -9`) is gone everywhere within `timeout` plus a heartbeat.
/// Each instance speaks under a random id of its own, made when it is
/// created, so a process that restarts brings nothing stale back (and two
/// apps in one process are two members). Messages missed on the bus show as
/// a gap in the sender's numbering, and the receiver asks for its whole set.
public final class Presence<Metadata: Codable & Sendable & Equatable>: Sendable {
    /// Who is present now, and every change: key → metadata.
    public let present: StateBroadcaster<[String: Metadata]>
    /// Each join and leave, as it happens.
    public let changes: EventBroadcaster<PresenceChange<Metadata>>

    private let channel: String
    private let bus: any MessageBus
    private let heartbeat: Duration
    private let timeout: Duration
    private let book: Locked<PresenceBook<Metadata>>
    /// The messages to publish, in order: one publisher sends them.
    private let outbox = Locked<AsyncStream<PresenceMessage<Metadata>>.Continuation?>(nil)
    private let loops = TaskSlot()
    private let clock = ContinuousClock()

    /// A presence topic on `bus` (this process alone on a ``LocalBus``).
    /// Every `heartbeat` this process says it is alive; a process not heard
    /// from for `timeout` is taken for gone.
    public convenience init(
        topic: String, bus: any MessageBus = LocalBus(), heartbeat: Duration = .seconds(1), timeout: Duration = .seconds(3)
    ) {
        self.init(topic: topic, bus: bus, heartbeat: heartbeat, timeout: timeout, origin: SecureToken.make())
    }

    /// A topic speaking under the id `origin` (1–64 letters, digits, `-`
    /// or `_`) instead of a random one made now: for tests and benchmarks
    /// that name the processes they play.
    public init(topic: String, bus: any MessageBus, heartbeat: Duration, timeout: Duration, origin: String) {
        channel = "presence." + topic
        self.bus = bus
        self.heartbeat = heartbeat
        self.timeout = timeout
        book = Locked(PresenceBook(origin: origin))
        present = StateBroadcaster([:])
        changes = EventBroadcaster(bufferLimit: 256)
    }

    /// Who is present now.
    public var current: [String: Metadata] {
        book.withLock { $0.present }
    }

    /// How many keys are present now, across every process heard from:
    /// cheap enough to read on every metrics scrape.
    public var count: Int {
        book.withLock { $0.present.count }
    }

    // MARK: - Tracking

    /// Tracks `key` with `metadata` while `interactor` is active: from now
    /// until it resigns active (the interactor keeps the tracking, see
    /// ``/napkin/Interactable/keep(_:)``). Returns once this process's list
    /// has the key, or `false`, tracking nothing, when the interactor is
    /// not active, belongs to a tree nobody views, or the key (1–256 UTF-8
    /// bytes) or metadata (at most 1 KiB as JSON) is out of bounds.
    @discardableResult
    public func track(_ key: String, _ metadata: Metadata, by interactor: some Interactable) async -> Bool {
        guard interactor.isViewed, Self.admits(key, metadata) else { return false }
        let tracking = PresenceTracking(key: key, presence: self)
        guard interactor.keep(tracking) else { return false }
        tracking.begin(metadata)
        await publishLocally()
        return true
    }

    /// Tracks `key` with `metadata` until the returned tracking's
    /// ``/napkin/EndsWithActivation/end()``: an entry of the process itself
    /// (a process's card in a list of a cluster's processes) rather than of
    /// a napkin. Returns once this process's list has the key, or `nil`
    /// when the key or metadata is out of bounds.
    public func track(_ key: String, _ metadata: Metadata) async -> (any EndsWithActivation)? {
        guard Self.admits(key, metadata) else { return nil }
        let tracking = PresenceTracking(key: key, presence: self)
        tracking.begin(metadata)
        await publishLocally()
        return tracking
    }

    /// Whether `key` (1–256 UTF-8 bytes) and `metadata` (at most 1 KiB as
    /// JSON) are within bounds.
    private static func admits(_ key: String, _ metadata: Metadata) -> Bool {
        guard PresenceKey.defect(key) == nil, let json = try? JSONEncoder().encode(metadata) else { return false }
        return json.count <= PresenceKey.maxMetadataBytes
    }

    /// Starts a tracker of `key` in this process; its id.
    func join(_ key: String, _ metadata: Metadata) -> UInt64 {
        send { $0.track(key, metadata) }
    }

    /// Ends tracker `tracker` of `key`.
    func leave(_ key: String, _ tracker: UInt64) {
        post { $0.untrack(key, tracker) }
    }

    /// Runs `change` on the book and queues the message it makes, under the
    /// lock: messages leave in the order of their numbers.
    private func send<R>(_ change: (inout PresenceBook<Metadata>) -> (PresenceMessage<Metadata>?, R)) -> R {
        book.withLock { book in
            let (message, result) = change(&book)
            if let message { enqueue(message) }
            return result
        }
    }

    /// ``send(_:)`` for a change that returns nothing else.
    private func post(_ change: (inout PresenceBook<Metadata>) -> PresenceMessage<Metadata>?) {
        send { (change(&$0), ()) }
    }

    private func enqueue(_ message: PresenceMessage<Metadata>) {
        _ = outbox.withLock { $0?.yield(message) }
    }

    /// Hands the latest list and the changes not yet sent to the
    /// broadcasters. Both are read on the broadcaster, so whichever call
    /// runs last sends the latest: two calls never leave an older list.
    func publishLocally() async {
        await present.sendLatest { [book] in
            book.withLock { book -> [String: Metadata]? in
                guard book.sentVersion != book.version else { return nil }
                book.sentVersion = book.version
                return book.present
            }
        }
        await changes.sendAll { [book] in
            book.withLock { book in
                defer { book.pendingChanges.removeAll() }
                return book.pendingChanges
            }
        }
    }

    // MARK: - Across processes

    /// Starts speaking with the other processes: subscribes, asks them for
    /// their sets, and begins the heartbeat. Returns once subscribed.
    /// Calling it again before ``stop()`` does nothing.
    public func start() async {
        guard loops.claim() else { return }
        let deliveries = await bus.subscribe(to: channel)
        let (messages, continuation) = AsyncStream<PresenceMessage<Metadata>>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        outbox.withLock { $0 = continuation }
        post { $0.message { .sync(seq: $0, target: nil) } }
        let task = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.publish(messages) }
                group.addTask { await self.receive(deliveries) }
                group.addTask { await self.beat() }
                await group.next()
                group.cancelAll()
            }
        }
        loops.hold(task)
    }

    /// Stops: tells the others this process's entries are gone, then stops
    /// listening. This process's own entries stay present here.
    public func stop() async {
        post { $0.message { .bye(seq: $0) } }
        outbox.withLock {
            $0?.finish()
            $0 = nil
        }
        guard let task = loops.stop() else { return }
        await task.value
        let now = clock.now
        let forgotPeers = book.withLock { book -> Bool in
            let origins = Array(book.peers.keys)
            for origin in origins { _ = book.receive(.bye(seq: 0), from: origin, at: now) }
            return !origins.isEmpty
        }
        if forgotPeers { await publishLocally() }
    }

    /// Publishes the outbox in order until it finishes.
    private func publish(_ messages: AsyncStream<PresenceMessage<Metadata>>) async {
        let origin = book.withLock { $0.origin }
        for await message in messages {
            guard let payload = try? BusEnvelope(message, origin: origin).encoded else { continue }
            try? await bus.publish(payload, to: channel)
        }
    }

    /// Takes the other processes' messages.
    private func receive(_ deliveries: AsyncStream<BusDelivery>) async {
        for await delivery in deliveries {
            switch delivery {
            case .message(let payload):
                guard let envelope = BusEnvelope<PresenceMessage<Metadata>>.decode(payload, channel: channel) else { continue }
                if let defect = envelope.value.defect {
                    RefusedInput.report("bus message on \(channel)", defect)
                    continue
                }
                let now = clock.now
                book.withLock { book in
                    guard envelope.origin != book.origin else { return }
                    let reply = book.receive(envelope.value, from: envelope.origin, at: now)
                    if reply.sendSnapshot { for part in book.snapshot() { enqueue(part) } }
                    if let target = reply.askSync { enqueue(book.message { .sync(seq: $0, target: target) }) }
                }
            case .reconnected:
                // Messages were missed both ways: ask everyone for their sets.
                post { $0.message { .sync(seq: $0, target: nil) } }
            }
            await publishLocally()
        }
    }

    /// Says this process is alive every heartbeat, and drops the processes
    /// not heard from within the timeout.
    private func beat() async {
        while (try? await Task.sleep(for: heartbeat)) != nil {
            let deadline = clock.now - timeout
            post { book in
                book.expire(before: deadline)
                return book.message { .beat(seq: $0) }
            }
            await publishLocally()
        }
    }
}

extension StateBroadcaster {
    /// Sends the value `latest` returns when it runs on the broadcaster
    /// (nothing for `nil`).
    fileprivate func sendLatest(_ latest: @Sendable () -> Value?) {
        if let value = latest() { send(value) }
    }
}

extension EventBroadcaster {
    /// Sends, in order, the events `take` returns when it runs on the
    /// broadcaster.
    fileprivate func sendAll(_ take: @Sendable () -> [Event]) {
        for event in take() { send(event) }
    }
}
