// What `swift package --allow-writing-to-package-directory napkin-feature Counter`
// writes into the executable target of Getting started, CounterNapkin.swift,
// which GettingStartedApp.swift attaches. The test the generator writes beside
// it, CounterNapkinTests.swift, is left out: scripts/generator-check builds and
// runs the generated tests.

import NapkinWeb

/// What Counter needs from its parent's component: nothing yet. Add the
/// services it uses here, and hand them to the interactor in `build()`.
protocol CounterNapkinDependency: Dependency {}

/// Builds Counter afresh each time its parent attaches it. It reports nothing
/// upward, so it takes no listener.
final class CounterNapkinBuilder: Builder<any CounterNapkinDependency>, @unchecked Sendable {
    @MainActor func build() -> ViewableRouter<CounterNapkinInteractor, CounterNapkinViewController> {
        let presenter = CounterNapkinPresenter()
        let interactor = CounterNapkinInteractor(presenter: presenter)
        return ViewableRouter(interactor: interactor, viewController: CounterNapkinViewController(presenter: presenter, listener: interactor))
    }
}

/// Counter's logic, off the main actor: it counts, and presents the count.
final actor CounterNapkinInteractor: PresentableInteractable {
    nonisolated let presenter: CounterNapkinPresenter
    private var count = 0

    init(presenter: CounterNapkinPresenter) { self.presenter = presenter }

    func didTapIncrement() async {
        count += 1
        await presenter.present(count: count)
    }
}

/// Counter's state: when it changes, napkin re-renders the view and patches the page.
@MainActor @Observable
final class CounterNapkinPresenter: Presentable, StatePresenting {
    private(set) var count = 0

    func present(count: Int) { self.count = count }

    var state: some Encodable { ["count": count] }
}

/// Counter's fragment of the page, and the action its form posts.
final class CounterNapkinViewController: WebViewController {
    let presenter: CounterNapkinPresenter

    init(presenter: CounterNapkinPresenter, listener: CounterNapkinInteractor) {
        self.presenter = presenter
        super.init()
        action("increment") { await listener.didTapIncrement() }
    }

    override func body() -> HTML {
        """
        <section class="counter"><h2>Counter</h2><p>Count: \(presenter.count)</p>\
        \(form("increment", content: "<button type=\"submit\">Increment</button>"))</section>
        """
    }
}
