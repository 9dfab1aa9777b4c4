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
        nonisolated let lifecycle = InteractorLifecycle()
        nonisolated let presenter: GaugePresenter
        private let thermometer: Thermometer

        init(presenter: GaugePresenter, thermometer: Thermometer) {
            self.presenter = presenter
            self.thermometer = thermometer
        }

        func didBecomeActive() async {
            task { [thermometer, presenter] in
                for await degrees in await thermometer.readings.subscribe() {
                    await presenter.show(degrees)
                }
            }
        }
    }

    @MainActor @Observable
    final class GaugePresenter: Presentable {
        var degrees = 0
        func show(_ value: Int) { degrees = value }
    }

    @MainActor final class GaugeView: ViewControllable {}
    @MainActor final class GaugeRouter: ViewableRouter<GaugeInteractor, GaugeView> {}

    /// The root attaches one gauge as soon as it loads; the root follows the
    /// thermometer too, so one `set` reaches both napkins.
    @MainActor
    final class RootRouter: LaunchRouter<GaugeInteractor, GaugeView> {
        let component: AppComponent
        init(component: AppComponent) {
            self.component = component
            let presenter = GaugePresenter()
            super.init(interactor: GaugeInteractor(presenter: presenter, thermometer: component.thermometer),
                       viewController: GaugeView())
        }

        override func didLoad() async {
            let presenter = GaugePresenter()
            let child = GaugeRouter(interactor: GaugeInteractor(presenter: presenter, thermometer: component.thermometer),
                                    viewController: GaugeView())
            await attachChild(child)
        }
    }
} // wrapper
// README:end
