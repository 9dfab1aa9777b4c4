// Article:begin "RoutingAndNavigation.md", Swift blocks 1 and 2 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinWeb // wrapper
import napkin // wrapper

enum RoutingExample { // wrapper
    protocol HomeDependency: Dependency { // wrapper
        var pitService: PitService { get } // wrapper
    } // wrapper

    actor PitService {} // wrapper

    protocol BoardDependency: Dependency { // wrapper
        var pitService: PitService { get } // wrapper
    } // wrapper

    final actor BoardInteractor: Interactable { // wrapper
    } // wrapper

    final class BoardViewController: WebViewController { // wrapper
        override func body() -> HTML { "<h2>The board</h2>" } // wrapper
    } // wrapper

    final class BoardBuilder: Builder<any BoardDependency>, @unchecked Sendable { // wrapper
        @MainActor func build() -> ViewableRouter<BoardInteractor, BoardViewController> { // wrapper
            ViewableRouter(interactor: BoardInteractor(), viewController: BoardViewController()) // wrapper
        } // wrapper
    } // wrapper

    @MainActor @Observable // wrapper
    final class HomePresenter: Presentable {} // wrapper

    final actor HomeInteractor: PresentableInteractable { // wrapper
        nonisolated let presenter: HomePresenter // wrapper
        init(presenter: HomePresenter) { self.presenter = presenter } // wrapper
    } // wrapper

    final class HomeViewController: WebViewController { // wrapper
        init(presenter: HomePresenter) { super.init() } // wrapper
        override func body() -> HTML { "<h1>Home</h1>\(slot("board"))" } // wrapper
    } // wrapper

    /// The home page's scope: what its children need.
    final class HomeComponent: Component<any HomeDependency>, BoardDependency, @unchecked Sendable {
        var pitService: PitService { dependency.pitService }
    }

    final class HomeBuilder: Builder<any HomeDependency>, @unchecked Sendable {
        @MainActor func build() -> HomeRouter {
            let component = HomeComponent(dependency: dependency)
            let presenter = HomePresenter()
            let interactor = HomeInteractor(presenter: presenter)
            return HomeRouter(
                interactor: interactor,
                viewController: HomeViewController(presenter: presenter),
                boardBuilder: BoardBuilder(dependency: component))
        }
    }

    final class HomeRouter: LaunchRouter<HomeInteractor, HomeViewController>, WebRouting {
        private let boardBuilder: BoardBuilder

        init(interactor: HomeInteractor, viewController: HomeViewController, boardBuilder: BoardBuilder) {
            self.boardBuilder = boardBuilder
            super.init(interactor: interactor, viewController: viewController)
        }

        func navigate(to path: WebPath) async -> Bool {
            switch path.first {
            case nil:                        // "/"
                // Clears the slot, then deactivates the board's subtree.
                await detachChild(in: "board")
                return true
            case "board":                    // "/board"
                // Already there (a reload, a second click): nothing is built.
                await attachIfNeeded(in: "board") { boardBuilder.build() }
                return path.rest.isRoot      // "/board/more": 404
            default:
                return false                 // 404
            }
        }
    }
} // wrapper
// Article:end
