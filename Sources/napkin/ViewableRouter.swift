/// A router that also owns a view: the napkin's ``ViewControllable``.
@MainActor
public protocol ViewableRouting: Routing {
    /// The napkin's view, for its parent to embed.
    var viewControllable: any ViewControllable { get }
}

/// The router of a napkin with a view.
///
/// `ViewControllerType` is usually the feature's own view-controllable
/// protocol (`any HomeViewControllable`); the value must also conform to
/// ``ViewControllable``.
@MainActor
open class ViewableRouter<InteractorType: Interactable, ViewControllerType>: Router<InteractorType>, ViewableRouting {
    /// The napkin's view, typed as the feature knows it.
    public let viewController: ViewControllerType

    /// The napkin's view, as the platform layer knows it.
    public let viewControllable: any ViewControllable

    /// Creates a router for `interactor` and its view `viewController`.
    public init(interactor: InteractorType, viewController: ViewControllerType) {
        guard let viewControllable = viewController as? any ViewControllable else {
            preconditionFailure("\(type(of: viewController)) must conform to ViewControllable")
        }
        self.viewController = viewController
        self.viewControllable = viewControllable
        super.init(interactor: interactor)
    }
}
