/// What one process knows of a ``Presence`` topic: its own trackers, the
/// sets the other processes sent, and their union. Pure bookkeeping; the
/// ``Presence`` that owns it keeps it under a lock.
///
/// A key is present while any tracker holds it, here or in another process
/// heard from within the timeout. Its metadata is this process's (its
/// oldest tracker's) when it tracks the key, else that of the process with
/// the smallest id that does: every process picks the same.
struct PresenceBook<Metadata: Codable & Sendable & Equatable>: Sendable {
    /// What this process knows of another one.
    struct Peer: Sendable {
        var entries: [String: Metadata] = [:]
        var lastHeard: ContinuousClock.Instant
        /// The sequence number of its last message.
        var seq: UInt64
        /// The snapshot being received, part by part.
        var incoming: (parts: Int, received: Int, entries: [String: Metadata])?
    }

    let origin: String
    /// This process's trackers: for each key, tracker id → metadata.
    private(set) var local: [String: [UInt64: Metadata]] = [:]
    private(set) var peers: [String: Peer] = [:]
    /// The union: who is present, with what.
    private(set) var present: [String: Metadata] = [:]
    /// Bumped on every change of ``present``.
    private(set) var version: UInt64 = 0
    /// The version the list broadcaster has.
    var sentVersion: UInt64 = 0
    /// Joins and leaves not yet handed to the change broadcaster, oldest first.
    var pendingChanges: [PresenceChange<Metadata>] = []
    private var nextTracker: UInt64 = 0
    /// The sequence number of this process's last message.
    private(set) var seq: UInt64 = 0

    init(origin: String) {
        self.origin = origin
    }

    // MARK: - This process's trackers

    /// Starts a tracker of `key`; the message that tells the others, if
    /// they learn something new, and the tracker's id.
    mutating func track(_ key: String, _ metadata: Metadata) -> (PresenceMessage<Metadata>?, UInt64) {
        nextTracker += 1
        let before = ownMetadata(key)
        local[key, default: [:]][nextTracker] = metadata
        return (ownChange(key, from: before), nextTracker)
    }

    /// Ends tracker `id` of `key`; the message that tells the others, if any.
    mutating func untrack(_ key: String, _ id: UInt64) -> PresenceMessage<Metadata>? {
        let before = ownMetadata(key)
        local[key]?[id] = nil
        if local[key]?.isEmpty == true { local[key] = nil }
        return ownChange(key, from: before)
    }

    /// The next message of this process: `make` gets its sequence number.
    mutating func message(_ make: (UInt64) -> PresenceMessage<Metadata>) -> PresenceMessage<Metadata> {
        seq += 1
        return make(seq)
    }

    /// This process's whole set, as the parts of one snapshot.
    mutating func snapshot() -> [PresenceMessage<Metadata>] {
        let entries = local.keys.sorted().map { ($0, ownMetadata($0)!) }
        let size = PresenceMessage<Metadata>.partSize
        let parts = max(1, (entries.count + size - 1) / size)
        return (0..<parts).map { part in
            let slice = entries[min(entries.count, part * size)..<min(entries.count, (part + 1) * size)]
            return message { .snapshot(seq: $0, part: part, parts: parts, entries: Dictionary(uniqueKeysWithValues: slice)) }
        }
    }

    private func ownMetadata(_ key: String) -> Metadata? {
        local[key]?.min { $0.key < $1.key }?.value
    }

    private mutating func ownChange(_ key: String, from before: Metadata?) -> PresenceMessage<Metadata>? {
        let after = ownMetadata(key)
        guard after != before else { return nil }
        refresh(key)
        if let after { return message { .join(seq: $0, key: key, metadata: after) } }
        return message { .leave(seq: $0, key: key) }
    }

    // MARK: - Other processes

    /// What to do after taking a message.
    struct Reply: Equatable {
        /// Send this process's whole set.
        var sendSnapshot = false
        /// Ask this process for its whole set: it was missed in part.
        var askSync: String?
    }

    /// Takes `message` from process `sender`, heard at `now`.
    mutating func receive(_ message: PresenceMessage<Metadata>, from sender: String, at now: ContinuousClock.Instant) -> Reply {
        var reply = Reply()
        if case .bye = message {
            drop(sender)
            return reply
        }
        var peer = peers[sender] ?? Peer(lastHeard: now, seq: 0)
        let known = peers[sender] != nil
        // A gap, or a process first heard in the middle: ask for its set
        // (unless this is the start of it).
        let startsSnapshot = if case .snapshot(_, 0, _, _) = message { true } else { false }
        if (!known || message.seq != peer.seq &+ 1) && !startsSnapshot { reply.askSync = sender }
        peer.seq = message.seq
        peer.lastHeard = now
        var changed: [String] = []
        switch message {
        case .join(_, let key, let metadata):
            peer.entries[key] = metadata
            changed = [key]
        case .leave(_, let key):
            peer.entries[key] = nil
            changed = [key]
        case .snapshot(_, let part, let parts, let entries):
            if part == 0 {
                peer.incoming = (parts, 0, [:])
            }
            if var incoming = peer.incoming, incoming.parts == parts, incoming.received == part {
                incoming.entries.merge(entries) { _, new in new }
                incoming.received += 1
                if incoming.received == parts {
                    changed = Array(Set(peer.entries.keys).union(incoming.entries.keys))
                    peer.entries = incoming.entries
                    peer.incoming = nil
                } else {
                    peer.incoming = incoming
                }
            } else {
                peer.incoming = nil
            }
        case .sync(_, let target):
            reply.sendSnapshot = target == nil || target == origin
        case .beat, .bye:
            break
        }
        peers[sender] = peer
        for key in changed { refresh(key) }
        return reply
    }

    /// Forgets the processes not heard from since `deadline`.
    mutating func expire(before deadline: ContinuousClock.Instant) {
        for (id, peer) in peers where peer.lastHeard < deadline { drop(id) }
    }

    /// Forgets process `id` and its entries.
    private mutating func drop(_ id: String) {
        guard let peer = peers.removeValue(forKey: id) else { return }
        for key in peer.entries.keys { refresh(key) }
    }

    // MARK: - The union

    /// Recomputes `key`'s presence, noting a join or leave.
    private mutating func refresh(_ key: String) {
        let now = ownMetadata(key)
            ?? peers.filter { $0.value.entries[key] != nil }.min { $0.key < $1.key }?.value.entries[key]
        let before = present[key]
        guard now != before else { return }
        present[key] = now
        version += 1
        if let now {
            pendingChanges.append(.joined(key, now))
        } else {
            pendingChanges.append(.left(key))
        }
    }
}
