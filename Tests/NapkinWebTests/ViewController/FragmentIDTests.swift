import NapkinTesting
import Testing
@testable import NapkinWeb

/// A fragment's id names its place in the tab's tree (the slot and region
/// names from the root), so a view type renamed between two deploys keeps
/// every id, and a page rendered before the rename still posts.
@Suite("Fragment ids", .timeLimit(.minutes(1)))
@MainActor
struct FragmentIDTests {
    final class Board: WebViewController {
        override func body() -> HTML { "\(slot("main"))\(region("clock") { "<p>12:00</p>" })" }
    }
    /// `Board` after a rename: the same body under another type's name.
    final class PitBoard: WebViewController {
        override func body() -> HTML { "\(slot("main"))\(region("clock") { "<p>12:00</p>" })" }
    }
    final class Card: WebViewController {
        override func body() -> HTML { "<p>card</p>\(slot("footer"))" }
    }
    final class Ticket: WebViewController {
        override func body() -> HTML { "<p>card</p>\(slot("footer"))" }
    }
    final class Footer: WebViewController {
        override func body() -> HTML { "<p>footer</p>" }
    }

    /// The id of every fragment on a tab's page, in document order.
    private func ids(in tab: WebTab) -> [String] {
        guard let page = tab.root?.render().rendered else { return [] }
        return page.matches(of: /<div class="napkin" id="(n-[0-9a-f]{12})"/).map { String($0.output.1) }
    }

    /// Shows `root` with `child` in its "main" slot and a footer in the
    /// child's, as the tab's page.
    private func show(_ root: WebViewController, _ child: WebViewController, on tab: WebTab) -> [String] {
        child.show(Footer(), in: "footer")
        root.show(child, in: "main")
        tab.setRootViewControllable(root)
        return ids(in: tab)
    }

    @Test("renaming every view type keeps every fragment id: the root's, its region's, and those of children two slots deep")
    func renameKeepsIDs() async throws {
        let testApp = try await TestApp.start(.inProcess)
        let client = testApp.client()
        _ = try await client.get("/")
        let sessionID = try #require(await client.sessionID)
        let tab = try #require(testApp.app.session(id: sessionID)?.mostRecentTab)

        let before = show(Board(), Card(), on: tab)
        let after = show(PitBoard(), Ticket(), on: tab)
        #expect(before.count == 4, "root, child, footer and region: \(before)")
        #expect(Set(before).count == before.count, "one id per place")
        #expect(after == before)
        await testApp.stop()
    }

    @Test("names cannot pose as paths: a slot named a/b is not slot b inside slot a, nor a region of the same name")
    func namesAreSteps() {
        let nested = FragmentID.child(of: FragmentID.child(of: FragmentID.root.place, slot: "a").place, slot: "b")
        let joined = FragmentID.child(of: FragmentID.root.place, slot: "a/b")
        #expect(nested.id != joined.id)
        #expect(FragmentID.child(of: FragmentID.root.place, slot: "x").id != FragmentID.region(of: FragmentID.root.place, name: "x").id)
        #expect(FragmentID.shared(in: FragmentID.root.place, name: "x") != FragmentID.region(of: FragmentID.root.place, name: "x").id)
    }
}
