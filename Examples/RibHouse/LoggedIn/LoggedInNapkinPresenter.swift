import NapkinWeb
import napkin

@MainActor
protocol LoggedInNapkinPresentable: Presentable {
    func present(pit: PitState)
}

/// The signed-in screen's state: the guest, their foods, the pit line.
@MainActor
@Observable
final class LoggedInNapkinPresenter: Presenter<LoggedInNapkinViewController>, LoggedInNapkinPresentable, StatePresenting {
    let user: User
    private(set) var pitHeadline = "Pit lighting up…"

    init(viewController: LoggedInNapkinViewController, user: User) {
        self.user = user
        super.init(viewController: viewController)
    }

    func present(pit: PitState) {
        // Only a new line re-renders the screen; a tick that changes nothing
        // the header shows sends no patch.
        let headline = pit.headline
        if headline != pitHeadline { pitHeadline = headline }
    }

    struct State: Encodable {
        let user: User
        let pit: String
    }

    var state: State { State(user: user, pit: pitHeadline) }
}
