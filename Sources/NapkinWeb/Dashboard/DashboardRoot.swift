import napkin

/// Builds a dashboard tab's tree: the root, which shows the page the URL
/// names in its `page` slot.
final class DashboardRootBuilder: Builder<DashboardComponent>, @unchecked Sendable {
    // Safe to share: no state besides the immutable dependency.
    @MainActor
    func build() -> DashboardRootRouter {
        DashboardRootRouter(
            interactor: DashboardRootInteractor(), viewController: DashboardRootViewController(), component: dependency)
    }
}

/// The root's interactor: the pages do the work, so it has none.
final actor DashboardRootInteractor: Interactable {}

/// Attaches the overview at the dashboard's path and a session's inspector
/// at `sessions/<handle>` under it; any other path is not the dashboard's.
final class DashboardRootRouter: LaunchRouter<DashboardRootInteractor, DashboardRootViewController>, WebRouting {
    private let component: DashboardComponent
    /// The handle the attached inspector shows, if an inspector is attached.
    private var inspected: String?

    init(interactor: DashboardRootInteractor, viewController: DashboardRootViewController, component: DashboardComponent) {
        self.component = component
        super.init(interactor: interactor, viewController: viewController)
    }

    func navigate(to path: WebPath) async -> Bool {
        guard let page = DashboardPage(path) else { return false }
        switch page {
        case .overview where child(in: "page") == nil || inspected != nil:
            inspected = nil
            await attach(DashboardPages.overview(component), in: "page")
        case .session(let handle) where inspected != handle:
            inspected = handle
            await attach(DashboardPages.inspector(of: handle, component), in: "page")
        default:
            break
        }
        return true
    }
}

/// The dashboard's frame: a banner linking home, then the page.
final class DashboardRootViewController: WebViewController {
    override var pageTitle: String? { "napkin dashboard" }

    override func body() -> HTML {
        """
        <header class="dash-banner"><a href="\(NapkinDashboard.path)">napkin dashboard</a></header>\
        <main class="dash-main">\(slot("page"))</main>
        """
    }
}

/// The dashboard's pages, read off a path.
enum DashboardPage: Equatable {
    case overview
    case session(handle: String)

    init?(_ path: WebPath) {
        let base = WebPath(NapkinDashboard.path).segments
        guard path.segments.starts(with: base) else { return nil }
        let rest = path.segments.dropFirst(base.count)
        switch (rest.first, rest.count) {
        case (nil, _):
            self = .overview
        case ("sessions", 2) where SessionHandles.isWellFormed(rest.last!):
            self = .session(handle: rest.last!)
        default:
            return nil
        }
    }
}
