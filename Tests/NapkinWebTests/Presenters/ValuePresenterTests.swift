import Observation
import Testing
@testable import NapkinWeb

/// A presenter of one value: the latest presented, and no change for an
/// equal one.
@Suite("Value presenter", .timeLimit(.minutes(1)))
@MainActor
struct ValuePresenterTests {
    /// Whether `presenter.value` changes, as Observation tells a view, while `body` runs.
    static func changes<Value>(_ presenter: ValuePresenter<Value>, _ body: () -> Void) -> Bool {
        let changed = Flag()
        withObservationTracking { _ = presenter.value } onChange: { changed.set() }
        body()
        return changed.value
    }

    @MainActor final class Flag {
        private(set) var value = false
        nonisolated func set() { MainActor.assumeIsolated { value = true } }
    }

    @Test("it shows the initial value, then the latest presented")
    func latest() {
        let presenter = ValuePresenter<Int?>(nil)
        #expect(presenter.value == nil)
        presenter.present(3)
        presenter.present(4)
        #expect(presenter.value == 4)
        #expect(presenter.state == 4)
    }

    @Test("an equal value is not presented again: nothing re-renders")
    func equalValueChangesNothing() {
        let presenter = ValuePresenter("brisket")
        #expect(!Self.changes(presenter) { presenter.present("brisket") })
        #expect(Self.changes(presenter) { presenter.present("ribs") })
        #expect(presenter.value == "ribs")
    }
}
