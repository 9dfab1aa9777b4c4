import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Synchronization
import Testing
import napkin

/// The example of "Coming from napkin for iOS" (`ArticleExamples/ComingFromIOSTally.swift`):
/// a view controller that is its own presenter re-renders when it is
/// `@Observable`, and napkin reports one that is not.
@Suite("Coming from napkin for iOS: a view that is its own presenter", .timeLimit(.minutes(1)))
@MainActor
struct ComingFromIOSTests {
    final class Scope: Component<any EmptyDependency>, TallyDependency, @unchecked Sendable {}

    final actor HostInteractor: Interactable {
        nonisolated let lifecycle = InteractorLifecycle()
    }

    final class HostView: WebViewController {
        override func body() -> HTML { slot("tally") }
    }

    /// The page's root: Tally in its one slot.
    final class Host: LaunchRouter<HostInteractor, HostView> {
        private let tallyBuilder: TallyBuilder

        init(scope: Scope) {
            tallyBuilder = TallyBuilder(dependency: scope)
            super.init(interactor: HostInteractor(), viewController: HostView())
        }

        override func didLoad() async {
            await attach(tallyBuilder.build(), in: "tally")
        }
    }

    /// Its own presenter, as napkin for iOS's Counter is, but not `@Observable`.
    final class UnobservedTallyViewController: WebViewController, TallyPresentable {
        private(set) var count = 0
        func update(count: Int) { self.count = count }
    }

    func start() -> (NapkinApp, TestClient) {
        // A tab the test reads without a stream stays past napkin's 3 s grace,
        // however slowly a loaded machine runs the test.
        let app = NapkinApp(component: Scope(), configuration: NapkinConfiguration(tabGracePeriod: .seconds(60))) { scope in Host(scope: scope) }
        var router = HTTPRouter()
        app.mount(on: &router)
        return (app, TestClient(inProcess: router))
    }

    @Test("without JavaScript, the page after the post shows the new count")
    func reRendersAfterPost() async throws {
        let (app, client) = start()
        let page = try await client.get("/")
        #expect(page.text.contains("<p>Tally: 0</p>"))
        let after = try await client.submit(page, button: "Add one")
        #expect(after.text.contains("<p>Tally: 1</p>"))
        await app.shutdown()
    }

    @Test("with napkin's client, the open page is patched with the new count")
    func patchesTheOpenPage() async throws {
        let (app, client) = start()
        let page = try await client.get("/")
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let posted = try await client.submit(page, button: "Add one", javascript: true)
        #expect(posted.status == 204)
        #expect(try await stream.nextPatch().html.contains("<p>Tally: 1</p>"))
        stream.close()
        await app.shutdown()
    }

    #if DEBUG
    @Test("a view that is its own presenter but not @Observable is reported once per type; an @Observable one is not")
    func unobservedOwnPresenterIsReported() {
        let reports = ReportLog()
        Diagnostics.$handler.withValue({ reports.append($0) }) {
            _ = TallyViewController()
            _ = UnobservedTallyViewController()
            _ = UnobservedTallyViewController()
        }
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("UnobservedTallyViewController is its own presenter but not @Observable") == true)
    }
    #endif
}

/// Diagnostics collected from any thread.
private final class ReportLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
