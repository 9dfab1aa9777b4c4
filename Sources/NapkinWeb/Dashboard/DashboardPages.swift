import napkin

/// Builds the dashboard's pages: each is a reading napkin (its figures read
/// every interval while it is shown) with its own view.
@MainActor
enum DashboardPages {
    /// The overview of the watched app.
    static func overview(_ component: DashboardComponent) -> any ViewableRouting {
        page(OverviewReading(), component: component, view: OverviewViewController.init) {
            let metrics = await component.metrics?.snapshot()
            return OverviewReading(
                app: component.watched, handles: component.handles, processes: component.processes.cards,
                metrics: metrics.map(MetricsReading.init))
        }
    }

    /// The tree of the session shown by `handle`.
    static func inspector(of handle: String, _ component: DashboardComponent) -> any ViewableRouting {
        let first = InspectorReading(handle: handle, app: component.watched, handles: component.handles)
        return page(first, component: component, view: InspectorViewController.init) {
            InspectorReading(handle: handle, app: component.watched, handles: component.handles)
        }
    }

    private static func page<Reading, View: WebViewController>(
        _ first: Reading, component: DashboardComponent,
        view: (ValuePresenter<Reading>) -> View, read: @escaping @MainActor @Sendable () async -> Reading
    ) -> ViewableRouter<ReadingInteractor<Reading>, View> {
        let presenter = ValuePresenter(first)
        let interactor = ReadingInteractor(presenter: presenter, interval: component.interval, read: read)
        return ViewableRouter(interactor: interactor, viewController: view(presenter))
    }
}
