// Article:begin "TheRings.md", Swift blocks 1, 2, 3 and 4 — a faithful copy: lines marked `// wrapper` are not in the article.
import napkin // wrapper

/// The service: one temperature, fanned out to every subscriber.
actor Thermometer {
    let readings = StateBroadcaster(225)
    func set(_ degrees: Int) async { await readings.send(degrees) }
}

import NapkinWeb

/// What a gauge needs from its parent's component.
protocol GaugeDependency: Dependency {
    var thermometer: Thermometer { get }
}

/// Builds a gauge. A leaf has nothing to route: napkin's own router will do.
final class GaugeBuilder: Builder<any GaugeDependency>, @unchecked Sendable {
    @MainActor func build() -> ViewableRouter<GaugeInteractor, GaugeView> {
        let presenter = GaugePresenter()
        let interactor = GaugeInteractor(presenter: presenter, thermometer: dependency.thermometer)
        return ViewableRouter(interactor: interactor, viewController: GaugeView(presenter: presenter))
    }
}

/// Follows the thermometer while the gauge is attached.
final actor GaugeInteractor: PresentableInteractable {
    nonisolated let presenter: GaugePresenter
    private let thermometer: Thermometer

    init(presenter: GaugePresenter, thermometer: Thermometer) {
        self.presenter = presenter
        self.thermometer = thermometer
    }

    func didBecomeActive() async {
        observe(await thermometer.readings.subscribe()) { [presenter] degrees in
            await presenter.show(degrees)
        }
    }
}

/// What the gauge shows.
@MainActor @Observable
final class GaugePresenter: Presentable {
    private(set) var degrees = 0
    func show(_ value: Int) { degrees = value }
}

/// The gauge's fragment of the page.
final class GaugeView: WebViewController {
    let presenter: GaugePresenter

    init(presenter: GaugePresenter) {
        self.presenter = presenter
        super.init()
    }

    override func body() -> HTML {
        "<p class=\"gauge\">\(presenter.degrees) °F</p>"
    }
}
// Article:end
