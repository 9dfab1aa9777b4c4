/// The new napkin's source, written in napkin's current style: a builder
/// over a dependency protocol returning napkin's own router, an actor
/// interactor handed its presenter (and listener) in `init`, and a view
/// holding its presenter and declaring its action. Each ring is a part; a
/// napkin is one file of all its parts, or with `--split` a file per part.
extension Names {
    /// One part of a napkin's source: the file it gets when split (named
    /// after `kind`), the modules it imports, and its declarations.
    struct Part {
        let kind: String
        let imports: [String]
        let text: String
    }

    /// The napkin's files: one, `<Name>Napkin.swift`, holding every part
    /// under their imports; or, `split`, one per part.
    func sources(headless: Bool, split: Bool) -> [(name: String, text: String)] {
        let parts = headless ? headlessParts : viewParts
        if split {
            return parts.map { part in
                ("\(prefix)\(part.kind).swift", part.imports.map { "import \($0)\n" }.joined() + "\n" + part.text)
            }
        }
        var imports: [String] = []
        for part in parts { imports += part.imports.filter { !imports.contains($0) } }
        // NapkinWeb brings napkin with it.
        if imports.contains("NapkinWeb") { imports.removeAll { $0 == "napkin" } }
        return [("\(prefix).swift", imports.map { "import \($0)\n" }.joined() + "\n" + parts.map(\.text).joined(separator: "\n"))]
    }

    /// The parts of a napkin with a view: a counter with one action.
    private var viewParts: [Part] {
        [
            Part(kind: "Builder", imports: ["napkin"], text: """
            /// What \(name) needs from its parent's component: nothing yet. Add the
            /// services it uses here, and hand them to the interactor in `build()`.
            protocol \(prefix)Dependency: Dependency {}

            /// Builds \(name) afresh each time its parent attaches it. It reports nothing
            /// upward, so it takes no listener.
            final class \(prefix)Builder: Builder<any \(prefix)Dependency>, @unchecked Sendable {
                @MainActor func build() -> ViewableRouter<\(prefix)Interactor, \(prefix)ViewController> {
                    let presenter = \(prefix)Presenter()
                    let interactor = \(prefix)Interactor(presenter: presenter)
                    return ViewableRouter(interactor: interactor, viewController: \(prefix)ViewController(presenter: presenter, listener: interactor))
                }
            }

            """),
            Part(kind: "Interactor", imports: ["napkin"], text: """
            /// \(name)'s logic, off the main actor: it counts, and presents the count.
            final actor \(prefix)Interactor: PresentableInteractable {
                nonisolated let presenter: \(prefix)Presenter
                private var count = 0

                init(presenter: \(prefix)Presenter) { self.presenter = presenter }

                func didTapIncrement() async {
                    count += 1
                    await presenter.present(count: count)
                }
            }

            """),
            Part(kind: "ViewController", imports: ["NapkinWeb"], text: #"""
            /// \#(name)'s state: when it changes, napkin re-renders the view and patches the page.
            @MainActor @Observable
            final class \#(prefix)Presenter: Presentable, StatePresenting {
                private(set) var count = 0

                func present(count: Int) { self.count = count }

                var state: some Encodable { ["count": count] }
            }

            /// \#(name)'s fragment of the page, and the action its form posts.
            final class \#(prefix)ViewController: WebViewController {
                let presenter: \#(prefix)Presenter

                init(presenter: \#(prefix)Presenter, listener: \#(prefix)Interactor) {
                    self.presenter = presenter
                    super.init()
                    action("increment") { await listener.didTapIncrement() }
                }

                override func body() -> HTML {
                    """
                    <section class="\#(slot)"><h2>\#(title)</h2><p>Count: \(presenter.count)</p>\
                    \(form("increment", content: "<button type=\"submit\">Increment</button>"))</section>
                    """
                }
            }

            """#),
        ]
    }

    /// The parts of a headless napkin: no view, a listener to report to.
    private var headlessParts: [Part] {
        [
            Part(kind: "Builder", imports: ["napkin"], text: """
            /// What \(name) needs from its parent's component: nothing yet. Add the
            /// services it uses here, and hand them to the interactor in `build`.
            protocol \(prefix)Dependency: Dependency {}

            /// Builds \(name), a napkin without a view: its router is napkin's own `Router`.
            final class \(prefix)Builder: Builder<any \(prefix)Dependency>, @unchecked Sendable {
                @MainActor func build(listener: any \(prefix)Listener) -> Router<\(prefix)Interactor> {
                    Router(interactor: \(prefix)Interactor(listener: listener))
                }
            }

            """),
            Part(kind: "Interactor", imports: ["napkin"], text: """
            /// How \(name) talks up to its parent.
            protocol \(prefix)Listener: AnyObject, Sendable {
                func \(variable)DidStart() async
            }

            /// Headless: no view, only work while attached. Start it in `didBecomeActive`:
            /// what `observe` and `task` start there ends with the napkin.
            final actor \(prefix)Interactor: Interactable {
                private let listener: any \(prefix)Listener

                init(listener: any \(prefix)Listener) {
                    self.listener = listener
                }

                func didBecomeActive() async {
                    await listener.\(variable)DidStart()
                }
            }

            """),
        ]
    }
}
