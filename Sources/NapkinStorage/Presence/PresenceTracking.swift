@_spi(Napkin) import NapkinSupport
import napkin

/// One napkin's tracking of a key, kept by its interactor while active
/// (``/napkin/Interactable/keep(_:)``): the interactor's resignation ends
/// it, with no task kept waiting for that.
final class PresenceTracking<Metadata: Codable & Sendable & Equatable>: EndsWithActivation {
    private enum Phase {
        case waiting
        case tracking(UInt64)
        case ended
    }

    private let key: String
    private let presence: Presence<Metadata>
    private let phase = Locked(Phase.waiting)

    init(key: String, presence: Presence<Metadata>) {
        self.key = key
        self.presence = presence
    }

    /// Starts tracking with `metadata`, unless it has ended already.
    func begin(_ metadata: Metadata) {
        phase.withLock { phase in
            guard case .waiting = phase else { return }
            phase = .tracking(presence.join(key, metadata))
        }
    }

    /// Stops tracking; the broadcasters hear of it from a task of its own.
    func end() {
        let tracker = phase.withLock { phase -> UInt64? in
            defer { phase = .ended }
            if case .tracking(let tracker) = phase { return tracker }
            return nil
        }
        guard let tracker else { return }
        presence.leave(key, tracker)
        Task { [presence] in await presence.publishLocally() }
    }
}
