// README:begin "The rings" — a faithful copy: lines marked `// wrapper` are not in the README.
import napkin

enum ReadmeRings { // wrapper
    /// The service: one temperature, fanned out to every subscriber.
    actor Thermometer {
        let readings = StateBroadcaster(225)
        func set(_ degrees: Int) async { await readings.send(degrees) }
    }

    /// The app-wide scope: `shared` makes one Thermometer for the whole tree.
    final class AppComponent: Component<any EmptyDependency>, GaugeDependency, @unchecked Sendable {
        var thermometer: Thermometer { shared { Thermometer() } }
    }

    protocol GaugeDependency: Dependency {
        var thermometer: Thermometer { get }
    }

    /// Each gauge follows the thermometer while it is attached.
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

    @MainActor @Observable
    final class GaugePresenter: Presentable {
        var degrees = 0
        func show(_ value: Int) { degrees = value }
    }

    @MainActor final class GaugeView: ViewControllable {}

    /// Builds a gauge. A leaf has nothing to route: napkin's own router will do.
    final class GaugeBuilder: Builder<any GaugeDependency>, @unchecked Sendable {
        @MainActor func build() -> ViewableRouter<GaugeInteractor, GaugeView> {
            let interactor = GaugeInteractor(presenter: GaugePresenter(), thermometer: dependency.thermometer)
            return ViewableRouter(interactor: interactor, viewController: GaugeView())
        }
    }

    /// The root is a gauge too, and attaches a second one as soon as it loads:
    /// one `set` reaches both napkins.
    final class RootRouter: LaunchRouter<GaugeInteractor, GaugeView> {
        private let gauges: GaugeBuilder

        init(component: AppComponent) {
            gauges = GaugeBuilder(dependency: component)
            let interactor = GaugeInteractor(presenter: GaugePresenter(), thermometer: component.thermometer)
            super.init(interactor: interactor, viewController: GaugeView())
        }

        override func didLoad() async {
            await attachChild(gauges.build())
        }
    }
} // wrapper
// README:end
