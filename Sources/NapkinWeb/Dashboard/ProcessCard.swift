import Foundation
import NapkinStorage
@_spi(Napkin) import NapkinSupport
import napkin

/// One process of the app, as every dashboard of the cluster lists it: each
/// process's dashboard tracks its own card in a presence topic for the
/// process's life, so a process that stops or dies leaves every list.
struct ProcessCard: Codable, Sendable, Equatable {
    /// The host's name and the process id.
    let host: String
    let pid: Int32
    /// When the process's dashboard started, in seconds since 1970.
    let started: Int

    /// This process's card.
    static let current = ProcessCard(
        host: ProcessInfo.processInfo.hostName, pid: ProcessInfo.processInfo.processIdentifier,
        started: Int(Date().timeIntervalSince1970))

    /// The card's key in the topic: host and pid, and when it started, so
    /// a pid reused after a restart is another process.
    var key: String { "\(host.prefix(200))/\(pid)/\(started)" }
}

/// The cluster's processes: this process's card, tracked from
/// ``launch()`` to ``stop()``, and every other process's.
final class ProcessList: Sendable {
    let presence: Presence<ProcessCard>
    /// This process's card.
    let card: ProcessCard
    /// The task that speaks for this process in the topic while it runs.
    private let speaking = TaskSlot()

    init(bus: any MessageBus, card: ProcessCard = .current) {
        presence = Presence(topic: "napkin.dashboard.processes", bus: bus)
        self.card = card
    }

    /// Joins the topic and tracks this process's card, in the background.
    func launch() {
        speaking.start {
            Task { [presence, card] in
                await presence.start()
                let tracking = await presence.track(card.key, card)
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
                tracking?.end()
                await presence.stop()
            }
        }
    }

    /// Leaves the topic: the other processes drop this one's card.
    func stop() async {
        await speaking.stop()?.value
    }

    /// The processes present now, by key order.
    var cards: [ProcessCard] {
        presence.current.sorted { $0.key < $1.key }.map(\.value)
    }
}
