@_spi(Napkin) import NapkinSupport

/// What one process tells the others about a ``Presence`` topic. Every
/// message carries the sender's next sequence number, so a receiver that
/// missed one (a bus that dropped or reconnected) notices the gap and asks
/// for the sender's whole set again.
enum PresenceMessage<Metadata: Codable & Sendable & Equatable>: Codable, Sendable {
    /// The sender's first tracker of `key` started (or its metadata changed).
    case join(seq: UInt64, key: String, metadata: Metadata)
    /// The sender's last tracker of `key` ended.
    case leave(seq: UInt64, key: String)
    /// The sender is alive: sent every heartbeat.
    case beat(seq: UInt64)
    /// Part `part` of `parts` of the sender's whole set; the parts of one
    /// set are sent one after another, with nothing between them.
    case snapshot(seq: UInt64, part: Int, parts: Int, entries: [String: Metadata])
    /// Asks `target` (every process, when `nil`) for its whole set.
    case sync(seq: UInt64, target: String?)
    /// The sender stops: its entries go at once.
    case bye(seq: UInt64)

    /// The most entries a snapshot part holds: with keys and metadata within
    /// their bounds, a part stays under the bus's message size.
    static var partSize: Int { 16 }
    /// The most parts of one snapshot (so the most entries a process has).
    static var maxParts: Int { 100_000 }

    var seq: UInt64 {
        switch self {
        case .join(let seq, _, _), .leave(let seq, _), .beat(let seq), .snapshot(let seq, _, _, _), .sync(let seq, _), .bye(let seq):
            seq
        }
    }

    /// Why the message cannot be taken as sent, or `nil` when it can.
    var defect: String? {
        switch self {
        case .join(_, let key, _), .leave(_, let key):
            return PresenceKey.defect(key)
        case .snapshot(_, let part, let parts, let entries):
            guard (1...Self.maxParts).contains(parts), (0..<parts).contains(part) else { return "its part number is out of range" }
            guard entries.count <= Self.partSize else { return "it holds more than \(Self.partSize) entries" }
            return entries.keys.lazy.compactMap(PresenceKey.defect).first
        case .sync(_, let target):
            guard let target else { return nil }
            return target.utf8.count <= 64 ? nil : "its target is malformed"
        case .beat, .bye:
            return nil
        }
    }
}

/// The bounds of a presence key and its metadata.
enum PresenceKey {
    /// The longest key, in UTF-8 bytes.
    static var maxBytes: Int { 256 }
    /// The largest metadata, as JSON.
    static var maxMetadataBytes: Int { 1024 }

    static func defect(_ key: String) -> String? {
        (1...maxBytes).contains(key.utf8.count) ? nil : "a key is empty or longer than \(maxBytes) bytes"
    }
}
