import Testing
import napkin

/// A view that holds its presenter, as web views do to read its state.
@MainActor
final class HoldingView: ViewControllable {
    var presenter: HoldingPresenter?
}

@MainActor
@Observable
final class HoldingPresenter: Presenter<HoldingView> {
    var title = ""
}

@Suite("Presenter", .timeLimit(.minutes(1)))
@MainActor
struct PresenterTests {
    @Test("a presenter reaches its view, and a view that holds its presenter is no retain cycle")
    func presenterAndViewAreFreed() {
        var weakView = Weak<HoldingView>?.none
        var weakPresenter = Weak<HoldingPresenter>?.none
        do {
            let view = HoldingView()
            let presenter = HoldingPresenter(viewController: view)
            view.presenter = presenter
            #expect(presenter.viewController === view)
            weakView = Weak(view)
            weakPresenter = Weak(presenter)
        }
        #expect(weakView?.value == nil)
        #expect(weakPresenter?.value == nil)
    }

    @Test("a presenter's stored properties are observed")
    func presenterIsObservable() {
        let presenter = HoldingPresenter(viewController: HoldingView())
        let changed = EventLog()
        withObservationTracking {
            _ = presenter.title
        } onChange: {
            changed.append("title")
        }
        presenter.title = "Pit Board"
        #expect(changed.all == ["title"])
    }
}
