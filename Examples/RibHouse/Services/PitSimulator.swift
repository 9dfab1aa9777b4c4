import Foundation

/// Makes the pit move: temperatures drift around 225–275 °F, meat cooks
/// down, ready meat is pulled and the next cut goes on. Seeded, so tests
/// can predict it.
struct PitSimulator: Sendable {
    private var random: SplitMix64
    private var nextCut = 0

    /// Pit minutes that pass per tick.
    static let minutesPerTick = 5
    static let temperatureRange = 225...275
    private static let cuts = ["Brisket", "Pulled Pork", "St. Louis Ribs", "Burnt Ends", "Smoked Sausage", "Beef Cheeks"]

    init(seed: UInt64 = 0x5EED_B0B) {
        random = SplitMix64(seed: seed)
    }

    /// The pit when the house opens.
    static func opening(at date: Date = Date()) -> PitState {
        PitState(
            smokers: [
                Smoker(name: "Old Bess", temperature: 231, item: "Brisket", status: .cooking(minutesLeft: 15)),
                Smoker(name: "Big Red", temperature: 252, item: "St. Louis Ribs", status: .cooking(minutesLeft: 40)),
                Smoker(name: "The Deacon", temperature: 247, item: "Pulled Pork", status: .ready),
                Smoker(name: "Lil' Smokey", temperature: 264, item: "Smoked Sausage", status: .cooking(minutesLeft: 25)),
            ],
            round: 0, updatedAt: date)
    }

    /// The pit one tick after `state`.
    mutating func tick(_ state: PitState, at date: Date = Date()) -> PitState {
        var next = state
        next.round += 1
        next.updatedAt = date
        for index in next.smokers.indices {
            next.smokers[index] = advance(next.smokers[index])
        }
        return next
    }

    private mutating func advance(_ smoker: Smoker) -> Smoker {
        var smoker = smoker
        let drift = Int(random.next() % 13) - 6
        let range = Self.temperatureRange
        smoker.temperature = min(max(smoker.temperature + drift, range.lowerBound), range.upperBound)
        switch smoker.status {
        case .cooking(let minutes) where minutes > Self.minutesPerTick:
            smoker.status = .cooking(minutesLeft: minutes - Self.minutesPerTick)
        case .cooking:
            smoker.status = .ready
        case .ready where random.next() % 6 == 0:
            // Pulled and sliced: the next cut goes on.
            smoker.item = Self.cuts[nextCut % Self.cuts.count]
            nextCut += 1
            smoker.status = .cooking(minutesLeft: 30 + Int(random.next() % 6) * 10)
        case .ready:
            break
        }
        return smoker
    }
}

/// A tiny seeded generator (SplitMix64), so the simulation is repeatable.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
