import Foundation

/// One smoker on the pit: how hot it runs and what is on its grate.
struct Smoker: Sendable, Equatable, Encodable {
    enum Status: Sendable, Equatable, Encodable {
        case cooking(minutesLeft: Int)
        case ready
    }

    let name: String
    var temperature: Int
    var item: String
    var status: Status

    var isReady: Bool { status == .ready }
}

/// The whole pit at one moment, as every session's header and Pit Board
/// show it (and as `GET /api/pit` returns it).
struct PitState: Sendable, Equatable, Encodable {
    var smokers: [Smoker]
    /// How many times the pit has been checked; changes on every tick.
    var round: Int
    var updatedAt: Date

    /// The average pit temperature, in °F.
    var averageTemperature: Int {
        guard !smokers.isEmpty else { return 0 }
        return smokers.map(\.temperature).reduce(0, +) / smokers.count
    }

    /// One line for the signed-in header: "Pit 231°F · Brisket ready".
    var headline: String {
        let news: String
        if let ready = smokers.first(where: \.isReady) {
            news = "\(ready.item) ready"
        } else if let next = smokers.min(by: { $0.minutesLeft < $1.minutesLeft }) {
            news = "\(next.item) in \(next.minutesLeft) min"
        } else {
            news = "fires banked"
        }
        return "Pit \(averageTemperature)°F · \(news)"
    }
}

extension Smoker {
    fileprivate var minutesLeft: Int {
        if case .cooking(let minutes) = status { return minutes }
        return 0
    }
}
