import Foundation
import NapkinWeb
import napkin

@MainActor
protocol PitBoardNapkinPresentable: Presentable {
    func present(pit: PitState)
}

/// One line of the board, already in words.
struct SmokerRow: Equatable {
    let name: String
    let temperature: String
    let item: String
    let status: String
    let isReady: Bool
}

/// The board's state: the pit as chalked up, formatted for people.
@MainActor
@Observable
final class PitBoardNapkinPresenter: Presenter<PitBoardNapkinViewController>, PitBoardNapkinPresentable, StatePresenting {
    private(set) var pit: PitState?

    func present(pit: PitState) {
        self.pit = pit
    }

    var rows: [SmokerRow] {
        (pit?.smokers ?? []).map { smoker in
            let status: String
            switch smoker.status {
            case .ready: status = "Ready"
            case .cooking(let minutes): status = "\(minutes) min to go"
            }
            return SmokerRow(
                name: smoker.name, temperature: "\(smoker.temperature)°F", item: smoker.item,
                status: status, isReady: smoker.isReady)
        }
    }

    /// "Chalked up 14:03:22 · round 12": changes on every tick.
    var updated: String {
        guard let pit else { return "Waiting for the pit…" }
        let time = pit.updatedAt.formatted(.dateTime.hour(.twoDigits(amPM: .omitted)).minute().second())
        return "Chalked up \(time) · round \(pit.round)"
    }

    var state: some Encodable { ["pit": pit] }
}
