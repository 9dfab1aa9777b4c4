// README:begin "Pages and routing" — a faithful copy: lines marked `// wrapper` are not in the README.
import NapkinWeb
import napkin

enum ReadmePages { // wrapper
    /// The page root: one screen at a time in its "page" slot, chosen by the URL.
    final class SiteRouter: LaunchRouter<SiteInteractor, SiteView>, WebRouting {
        private let menu: MenuNapkinBuilder
        private let clock: ClockNapkinBuilder

        init(component: SiteComponent) {
            menu = MenuNapkinBuilder(dependency: component)
            clock = ClockNapkinBuilder(dependency: component)
            super.init(interactor: SiteInteractor(), viewController: SiteView())
        }

        /// Called for every page view of the tab, and for every live navigation.
        func navigate(to path: WebPath) async -> Bool {
            switch path.segments {
            case []:
                if !(child(in: "page")?.interactable is MenuNapkinInteractor) { await attach(menu.build(), in: "page") }
            case ["clock"]:
                if !(child(in: "page")?.interactable is ClockNapkinInteractor) { await attach(clock.build(), in: "page") }
            default:
                return false   // nobody claims it: the 404 page, in the layout
            }
            return true
        }
    }

    final actor SiteInteractor: Interactable {
        nonisolated let lifecycle = InteractorLifecycle()
    }

    final class SiteView: WebViewController {
        override func body() -> HTML {
            "<nav><a href=\"/\">Menu</a> <a href=\"/clock\">Clock</a></nav>\(slot("page"))"
        }
    }

    // The leaves the README leaves out: a label each, in the style napkin-feature writes. // wrapper
    final class SiteComponent: Component<any EmptyDependency>, MenuNapkinDependency, ClockNapkinDependency, @unchecked Sendable {} // wrapper
    protocol MenuNapkinDependency: Dependency {} // wrapper
    protocol ClockNapkinDependency: Dependency {} // wrapper
    final actor MenuNapkinInteractor: Interactable { nonisolated let lifecycle = InteractorLifecycle() } // wrapper
    final actor ClockNapkinInteractor: Interactable { nonisolated let lifecycle = InteractorLifecycle() } // wrapper
    final class LabelView: WebViewController { // wrapper
        let text: String // wrapper
        init(_ text: String) { self.text = text } // wrapper
        override func body() -> HTML { "<h1>\(text)</h1>" } // wrapper
    } // wrapper
    final class MenuNapkinBuilder: Builder<any MenuNapkinDependency>, @unchecked Sendable { // wrapper
        @MainActor func build() -> ViewableRouter<MenuNapkinInteractor, LabelView> { ViewableRouter(interactor: MenuNapkinInteractor(), viewController: LabelView("Menu")) } // wrapper
    } // wrapper
    final class ClockNapkinBuilder: Builder<any ClockNapkinDependency>, @unchecked Sendable { // wrapper
        @MainActor func build() -> ViewableRouter<ClockNapkinInteractor, LabelView> { ViewableRouter(interactor: ClockNapkinInteractor(), viewController: LabelView("Clock")) } // wrapper
    } // wrapper
} // wrapper
// README:end
