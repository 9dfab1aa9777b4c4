import Foundation
import NapkinWeb

/// One smoker on the pit: how hot it runs and what is on its grate.
struct Smoker: Sendable, Equatable, Codable {
    enum Status: Sendable, Equatable {
        case cooking(minutesLeft: Int)
        case ready
    }

    let name: String
    var temperature: Int
    var item: String
    var status: Status

    var isReady: Bool { status == .ready }

    private enum CodingKeys: String, CodingKey {
        case name, temperature, item, status, minutesLeft
    }

    /// Flat for curl: `"status": "cooking", "minutesLeft": 40`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(temperature, forKey: .temperature)
        try container.encode(item, forKey: .item)
        try container.encode(isReady ? "ready" : "cooking", forKey: .status)
        try container.encode(minutesLeft, forKey: .minutesLeft)
    }

    /// Read back from the same flat form (the pit crosses processes as JSON).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        temperature = try container.decode(Int.self, forKey: .temperature)
        item = try container.decode(String.self, forKey: .item)
        let ready = try container.decode(String.self, forKey: .status) == "ready"
        status = ready ? .ready : .cooking(minutesLeft: try container.decode(Int.self, forKey: .minutesLeft))
        // Another process's pit, from the bus: within what a pit can be.
        guard Self.label.check(name) == nil, Self.label.check(item) == nil else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "a name or item out of bounds")
        }
        guard (0...1_000).contains(temperature), (0...10_000).contains(minutesLeft) else {
            throw DecodingError.dataCorruptedError(forKey: .temperature, in: container, debugDescription: "out of range")
        }
    }

    /// The bounds of a smoker's name and of what is on its grate.
    static let label = TextLimit(maxCharacters: 40)

    init(name: String, temperature: Int, item: String, status: Status) {
        self.name = name
        self.temperature = temperature
        self.item = item
        self.status = status
    }
}

/// The whole pit at one moment, as every session's header and Pit Board
/// show it (and as `GET /api/pit` returns it).
struct PitState: Sendable, Equatable, Codable {
    var smokers: [Smoker]
    /// How many times the pit has been checked; changes on every tick.
    var round: Int
    var updatedAt: Date

    /// The average pit temperature, in °F.
    var averageTemperature: Int {
        guard !smokers.isEmpty else { return 0 }
        return smokers.map(\.temperature).reduce(0, +) / smokers.count
    }

    private enum CodingKeys: String, CodingKey {
        case smokers, round, updatedAt, averageTemperature, headline
    }

    /// With the derived lines too, and the time as ISO 8601 for any client.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(smokers, forKey: .smokers)
        try container.encode(round, forKey: .round)
        try container.encode(updatedAt.formatted(.iso8601), forKey: .updatedAt)
        try container.encode(averageTemperature, forKey: .averageTemperature)
        try container.encode(headline, forKey: .headline)
    }

    /// Read back from the same form; the derived lines are computed again.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        smokers = try container.decode([Smoker].self, forKey: .smokers)
        round = try container.decode(Int.self, forKey: .round)
        let time = try container.decode(String.self, forKey: .updatedAt)
        updatedAt = try Date(time, strategy: .iso8601)
        guard (1...Self.maxSmokers).contains(smokers.count), round >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .smokers, in: container, debugDescription: "not a pit")
        }
    }

    /// The most smokers a pit read back may have.
    static let maxSmokers = 16

    init(smokers: [Smoker], round: Int, updatedAt: Date) {
        self.smokers = smokers
        self.round = round
        self.updatedAt = updatedAt
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
    /// Pit minutes until ready; 0 once it is.
    var minutesLeft: Int {
        if case .cooking(let minutes) = status { return minutes }
        return 0
    }
}
