/// The new napkin's test: a Swift Testing suite that builds it in
/// isolation, from a tiny component conforming to its dependency protocol.
extension Names {
    /// Shows the napkin alone on the page of a minimal `NapkinApp`, posts
    /// its action through an in-process `TestClient`, and reads the page
    /// and the patch that follow.
    func viewTest(module: String) -> String {
        #"""
        import NapkinHTTP
        import NapkinTesting
        import NapkinWeb
        import Testing
        import napkin
        @testable import \#(module)

        /// \#(name) on its own: the only napkin on the page of a minimal app, driven
        /// through an in-process `TestClient`.
        @Suite("\#(title) napkin", .timeLimit(.minutes(1)))
        @MainActor
        struct \#(suite) {
            /// The scope \#(name) is built from: provide its dependency here.
            final class Scope: Component<any EmptyDependency>, \#(prefix)Dependency, @unchecked Sendable {}

            final actor HostInteractor: Interactable {}

            final class HostView: WebViewController {
                override func body() -> HTML { slot("\#(slot)") }
            }

            /// The page's root: it shows \#(name) in its one slot.
            final class Host: LaunchRouter<HostInteractor, HostView> {
                private let builder: \#(prefix)Builder

                init(scope: Scope) {
                    builder = \#(prefix)Builder(dependency: scope)
                    super.init(interactor: HostInteractor(), viewController: HostView())
                }

                override func didLoad() async {
                    await attach(builder.build(), in: "\#(slot)")
                }
            }

            /// A minimal app whose page is \#(name), and a browser on it.
            func start() -> (NapkinApp, TestClient) {
                let app = NapkinApp(component: Scope()) { scope in Host(scope: scope) }
                var router = HTTPRouter()
                app.mount(on: &router)
                return (app, TestClient(inProcess: router))
            }

            @Test("posting Increment shows the new count on the page")
            func increment() async throws {
                let (app, client) = start()
                let page = try await client.get("/")
                #expect(page.status == 200)
                #expect(page.text.contains("Count: 0"))
                let after = try await client.submit(page, button: "Increment")
                #expect(after.text.contains("Count: 1"))
                await app.shutdown()
            }

            @Test("with napkin's client, the new count comes as a patch on the tab's stream")
            func patch() async throws {
                let (app, client) = start()
                let page = try await client.get("/")
                let stream = try await client.events()
                #expect(try await stream.nextPatch().html.contains("Count: 0"))
                let posted = try await client.submit(page, button: "Increment", javascript: true)
                #expect(posted.status == 204)
                #expect(try await stream.nextPatch().html.contains("Count: 1"))
                stream.close()
                await app.shutdown()
            }
        }

        """#
    }

    /// Attaches the headless napkin under a bare parent router, which is
    /// its listener, and detaches it.
    func headlessTest(module: String) -> String {
        """
        import Testing
        import napkin
        @testable import \(module)

        /// \(name) on its own, attached under a bare parent router.
        @Suite("\(title) napkin", .timeLimit(.minutes(1)))
        @MainActor
        struct \(suite) {
            /// The scope \(name) is built from: provide its dependency here.
            final class Scope: Component<any EmptyDependency>, \(prefix)Dependency, @unchecked Sendable {}

            /// The parent's interactor, which \(name) reports to.
            final actor ParentInteractor: Interactable, \(prefix)Listener {
                private(set) var starts = 0

                func \(variable)DidStart() async { starts += 1 }
            }

            @Test("attached, \(name) is active and tells its listener; detached, it is not")
            func attachAndDetach() async {
                let parent = Router(interactor: ParentInteractor())
                let child = \(prefix)Builder(dependency: Scope()).build(listener: parent.interactor)
                await parent.attachChild(child)
                #expect(child.interactor.isActive)
                #expect(await parent.interactor.starts == 1)
                await parent.detachChild(child)
                #expect(!child.interactor.isActive)
                #expect(parent.children.isEmpty)
            }
        }

        """
    }
}
