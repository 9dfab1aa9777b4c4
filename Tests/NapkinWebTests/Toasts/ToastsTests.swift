import Foundation
import Observation
import Testing
import napkin

@testable import NapkinWeb

/// A page's toasts: the newest few, each with a timer that ends with it.
@Suite("Toasts", .timeLimit(.minutes(1)))
@MainActor
struct ToastsTests {
    @Test("the newest `limit` toasts show, oldest first; ids count up; the oldest leave first")
    func keepsTheNewest() {
        let toasts = Toasts<String>(limit: 3, lifetime: nil)
        for n in 1...5 {
            #expect(toasts.show("Toast \(n)") == n)
            #expect(toasts.shown.count == min(n, 3))
        }
        #expect(toasts.shown.map(\.id) == [3, 4, 5])
        #expect(toasts.shown.map(\.content) == ["Toast 3", "Toast 4", "Toast 5"])
        toasts.dismiss(4)
        #expect(toasts.shown.map(\.id) == [3, 5])
        toasts.show("Toast 6")
        #expect(toasts.shown.map(\.id) == [3, 5, 6])
    }

    @Test("closing a toast that is not shown (twice, pushed out, made up, none) changes nothing")
    func strayDismissals() {
        let toasts = Toasts<String>(limit: 2, lifetime: nil)
        for n in 1...3 { toasts.show("Toast \(n)") }
        for stray in [1, 99, -1, Int.max] as [Int?] + [nil] { toasts.dismiss(stray) }
        #expect(toasts.shown.map(\.id) == [2, 3])
        toasts.dismiss(2)
        toasts.dismiss(2)
        #expect(toasts.shown.map(\.id) == [3])
    }

    @Test("a burst keeps at most `limit` timers; closing a toast ends its timer")
    func aBurstKeepsAFewTimers() {
        let toasts = Toasts<String>(limit: 3, lifetime: .seconds(60))
        for n in 1...50 {
            toasts.show("Round \(n)")
            #expect(toasts.runningTimers == min(n, 3), "after toast \(n)")
        }
        toasts.dismiss(49)
        #expect(toasts.runningTimers == 2)
        #expect(toasts.shown.map(\.id) == [48, 50])
    }

    @Test("a limit under one shows one toast")
    func limitIsAtLeastOne() {
        let toasts = Toasts<Int>(limit: 0, lifetime: nil)
        toasts.show(1)
        toasts.show(2)
        #expect(toasts.limit == 1)
        #expect(toasts.shown.map(\.content) == [2])
    }

    @Test("a toast leaves when its lifetime is up, and its timer with it")
    func expires() async {
        let toasts = Toasts<String>(limit: 3, lifetime: .milliseconds(20))
        toasts.show("Brisket is up")
        #expect(toasts.shown.count == 1)
        for await shown in Observations({ toasts.shown }) where shown.isEmpty { break }
        #expect(toasts.runningTimers == 0)
    }

    @Test("a settlement does not wait for a toast's timer")
    func settlesWithoutTheTimer() async {
        let toasts = Toasts<String>(lifetime: .seconds(60))
        let (_, report) = await Settlement.run(timeout: .seconds(30)) { toasts.show("Ribs are up") }
        #expect(report.settled)
        #expect(toasts.shown.count == 1)
    }

    @Test("pending timers keep no Toasts alive: a torn-down page's toasts go with it")
    func timersHoldNoToasts() {
        weak var gone: Toasts<String>?
        do {
            let toasts = Toasts<String>(lifetime: .seconds(60))
            toasts.show("Ribs are up")
            gone = toasts
            #expect(gone != nil)
        }
        #expect(gone == nil)
    }

    @Test("a toast's JSON is its id and content")
    func json() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Toast(id: 7, content: "Ribs are up"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"content":"Ribs are up","id":7}"#)
    }

    @Test("a close button's id reads leniently: anything but a whole number closes nothing")
    func dismissalReadsLeniently() throws {
        let cases: [(String, Int?)] = [(#"{"toast":"7"}"#, 7), (#"{"toast":"x"}"#, nil), (#"{"toast":""}"#, nil), ("{}", nil), (#"{"toast":7}"#, nil)]
        for (json, expected) in cases {
            #expect(try JSONDecoder().decode(ToastDismissal.self, from: Data(json.utf8)).toast == expected, "\(json)")
        }
        #expect(FormAction<ToastDismissal>.dismissToast.name == "dismissToast")
    }

    @Test("a view's toasts region is told of each toast that comes or goes, and re-renders with it")
    func regionFollowsTheToasts() {
        let view = ToastingView()
        #expect(view.render().rendered.contains("<div class=\"toasts\"></div>"))
        let id = view.toasts.show("Ribs are up")
        #expect(view.render().rendered.contains("Ribs are up"))
        view.toasts.show("Brisket is up")
        #expect(view.render().rendered.contains("Brisket is up"))
        view.toasts.dismiss(id)
        let html = view.render().rendered
        #expect(!html.contains("Ribs are up"))
        #expect(html.contains("Brisket is up"))
    }

    @Test("toasts keep no view alive, and one that is gone is not told")
    func watchersAreWeak() {
        let toasts = Toasts<String>(lifetime: nil)
        weak var gone: ToastingView?
        do {
            let view = ToastingView(toasts: toasts)
            _ = view.render()
            gone = view
        }
        #expect(gone == nil)
        toasts.show("Nobody sees this")
        let view = ToastingView(toasts: toasts)
        #expect(view.render().rendered.contains("Nobody sees this"))
    }
}

/// A view showing its toasts and nothing else.
@MainActor
private final class ToastingView: WebViewController {
    let toasts: Toasts<String>

    init(toasts: Toasts<String> = Toasts(lifetime: nil)) {
        self.toasts = toasts
        super.init()
    }

    override func body() -> HTML {
        "<main>\(toasts(toasts) { "<p>\($0)</p>" })</main>"
    }
}
