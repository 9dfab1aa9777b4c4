import NapkinWeb
import Testing
import napkin

/// Routers attach and show, and clear and detach, children in named slots
/// in one step each.
@Suite("Child slots", .timeLimit(.minutes(1)))
@MainActor
struct ChildSlotTests {
    final actor SlotInteractor: Interactable {}

    final class SlotView: WebViewController {
        let label: String
        init(_ label: String) { self.label = label }
        override func body() -> HTML { "<p>\(label)</p>\(slot("main"))" }
    }

    /// A child that routes pages and records where it was sent, and whether
    /// its view was already shown then.
    final class PageChild: ViewableRouter<SlotInteractor, SlotView>, WebRouting {
        private(set) var navigations: [(path: String, shown: Bool)] = []
        weak var parentView: WebViewController?
        func navigate(to path: WebPath) async -> Bool {
            navigations.append((path.description, parentView?.children["main"] === viewController))
            return path.first == "known"
        }
    }

    func leaf(_ label: String) -> ViewableRouter<SlotInteractor, SlotView> {
        ViewableRouter(interactor: SlotInteractor(), viewController: SlotView(label))
    }

    @Test("attach activates the child and shows its view in the slot")
    func attachShows() async {
        let parent = leaf("parent")
        let child = leaf("child")
        await parent.attach(child, in: "main")
        #expect(child.interactor.isActive)
        #expect(parent.children.count == 1)
        #expect(parent.viewController.children["main"] === child.viewController)
        #expect(parent.child(in: "main") === child)
        #expect(parent.viewController.body().description.contains("<p>child</p>"))
    }

    @Test("attaching into a taken slot detaches the napkin that was there")
    func attachReplaces() async {
        let parent = leaf("parent")
        let first = leaf("first")
        let second = leaf("second")
        await parent.attach(first, in: "main")
        await parent.attach(second, in: "main")
        #expect(!first.interactor.isActive)
        #expect(second.interactor.isActive)
        #expect(parent.children.count == 1)
        #expect(parent.child(in: "main") === second)
        #expect(!parent.viewController.body().description.contains("first"))
    }

    @Test("attaching the child already shown changes nothing")
    func attachSameTwice() async {
        let parent = leaf("parent")
        let child = leaf("child")
        await parent.attach(child, in: "main")
        await parent.attach(child, in: "main")
        #expect(child.interactor.isActive)
        #expect(parent.children.count == 1)
    }

    @Test("detachChild(in:) clears the slot and deactivates the child; an empty slot is left alone")
    func detachClears() async {
        let parent = leaf("parent")
        let child = leaf("child")
        await parent.attach(child, in: "main")
        await parent.detachChild(in: "main")
        #expect(!child.interactor.isActive)
        #expect(parent.children.isEmpty)
        #expect(parent.viewController.children["main"] == nil)
        #expect(parent.child(in: "main") == nil)
        await parent.detachChild(in: "main")
        #expect(parent.children.isEmpty)
    }

    @Test("with a path, a child that routes pages is navigated before it is shown, and its claim is returned")
    func attachNavigates() async {
        let parent = leaf("parent")
        let child = PageChild(interactor: SlotInteractor(), viewController: SlotView("page"))
        child.parentView = parent.viewController
        #expect(await parent.attach(child, in: "main", navigatingTo: WebPath("/known/3")))
        #expect(child.navigations.map(\.path) == ["/known/3"])
        #expect(child.navigations.map(\.shown) == [false])
        let other = PageChild(interactor: SlotInteractor(), viewController: SlotView("other"))
        #expect(await parent.attach(other, in: "main", navigatingTo: WebPath("/nowhere")) == false)
        #expect(await parent.attach(leaf("plain"), in: "main", navigatingTo: WebPath("/nowhere")))
    }

    @Test("attachIfNeeded builds only when the slot shows no child of the type it builds")
    func attachIfNeeded() async {
        let parent = leaf("parent")
        var builds = 0
        let first = await parent.attachIfNeeded(in: "main") { () -> ViewableRouter<SlotInteractor, SlotView> in
            builds += 1
            return leaf("first")
        }
        #expect(first && builds == 1)
        let shown = parent.child(in: "main")
        #expect(await parent.attachIfNeeded(in: "main") { () -> ViewableRouter<SlotInteractor, SlotView> in
            builds += 1
            return leaf("second")
        })
        #expect(builds == 1, "a child of the type is shown: nothing is built")
        #expect(parent.child(in: "main") === shown)

        // Another router type takes the slot, navigated like attach(_:in:navigatingTo:).
        let claimed = await parent.attachIfNeeded(in: "main", navigatingTo: WebPath("/known")) {
            PageChild(interactor: SlotInteractor(), viewController: SlotView("page"))
        }
        #expect(claimed)
        #expect(parent.child(in: "main") is PageChild)
        #expect(shown?.interactable.isActive == false)
    }
}
