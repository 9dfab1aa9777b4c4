/// Where a tree is launched: the platform's root container. On the web it is
/// a browser session, which shows the root napkin's view as its page.
@MainActor
public protocol LaunchHost: AnyObject {
    /// Installs the root napkin's view.
    func setRootViewControllable(_ viewControllable: any ViewControllable)
}

/// The root router of a tree: it is launched into a host instead of being
/// attached to a parent, and it can be terminated as a whole.
@MainActor
public protocol LaunchRouting: ViewableRouting {
    /// Installs the root view in `host`, activates the root interactor and
    /// loads the router.
    func launch(from host: any LaunchHost) async

    /// Tears the whole tree down: every interactor is deactivated, top down,
    /// and every bound task cancelled, before this returns.
    func terminate() async
}

/// The router at the root of a napkin tree.
@MainActor
open class LaunchRouter<InteractorType: Interactable, ViewControllerType>:
    ViewableRouter<InteractorType, ViewControllerType>, LaunchRouting
{
    /// Shows the root view in `host`, activates the root interactor, then
    /// loads the router (``Router/didLoad()`` attaches the permanent children).
    /// The tree is viewed as the caller's ``Viewing/isViewed`` says.
    public final func launch(from host: any LaunchHost) async {
        host.setRootViewControllable(viewControllable)
        interactor.lifecycle.adoptViewing(Viewing.isViewed)
        await interactor.activate()
        await load()
    }

    /// Deactivates the whole tree, top down; every bound task is cancelled
    /// before this returns.
    public final func terminate() async {
        await deactivateSubtree()
    }
}
