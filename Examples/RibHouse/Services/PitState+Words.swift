import Foundation

extension Smoker {
    /// The board's status column: "Ready", or "40 min to go".
    var statusText: String {
        isReady ? "Ready" : "\(minutesLeft) min to go"
    }
}

extension PitState {
    /// "Chalked up 14:03:22 · round 12": changes on every tick.
    var chalkedUp: String {
        let time = updatedAt.formatted(.dateTime.hour(.twoDigits(amPM: .omitted)).minute().second())
        return "Chalked up \(time) · round \(round)"
    }
}
