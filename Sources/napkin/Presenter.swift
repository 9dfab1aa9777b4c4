@_exported import Observation

/// What an interactor presents through: a main-actor object, so every call
/// from an interactor is an explicit `await` onto the main actor.
@MainActor
public protocol Presentable: AnyObject, Sendable {}

/// The base of a napkin's presenter: view state on the main actor,
/// observable so views (and napkin's web layer) re-render when it changes.
///
/// It holds its view weakly: the view usually holds its presenter (to read
/// its state), and the router keeps the view for the napkin's attached
/// life. Subclasses re-annotate with `@Observable` so their own stored
/// properties are tracked:
///
/// ```swift
/// @MainActor @Observable
/// final class HomePresenter: Presenter<HomeViewController>, HomePresentable {
///     var greeting = ""
///     func present(user: User) async { greeting = "Hello, \(user.name)" }
/// }
/// ```
@MainActor
@Observable
open class Presenter<ViewControllerType: AnyObject>: Presentable {
    /// The view this presenter feeds; `nil` once the view is gone.
    @ObservationIgnored public weak let viewController: ViewControllerType?

    /// Creates a presenter for `viewController`, which it holds weakly.
    public init(viewController: ViewControllerType) {
        self.viewController = viewController
    }
}
