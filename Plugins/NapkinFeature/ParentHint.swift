import Foundation

/// The lines that attach the new napkin under its parent: the napkin that
/// `--parent` names, found in the target, or else any parent, `Parent`.
/// They are printed, never written: a parent's files are the user's own
/// code, shaped in ways a template cannot know.
struct ParentHint {
    let parent: Names
    /// The target's sources, to name the parent's files; `nil` for any parent.
    private let scan: SourceScan?

    /// The hint for the napkin `name` of the scanned target, under which
    /// `child` (`headless` or not) is to be attached.
    init(named name: String, in scan: SourceScan, target: String, child: Names, headless: Bool) throws(FeatureError) {
        parent = Names(name: name)
        guard scan.file(declaring: "\(parent.prefix)Builder") != nil else {
            throw FeatureError("no napkin \(name) in target \(target): no file declares \(parent.prefix)Builder (see --parent in --help)")
        }
        if !headless, scan.file(declaring: "\(parent.prefix)ViewController") == nil {
            throw FeatureError("\(name) has no view, so it cannot show \(child.name): choose a parent with a view, or pass --headless")
        }
        self.scan = scan
    }

    /// The hint for any parent, whose files are not known.
    init() {
        parent = Names(name: "Parent")
        scan = nil
    }

    /// What to add where, with each file named relative to `root`.
    func text(for child: Names, headless: Bool, root: URL) -> String {
        let (p, c) = (parent.prefix, child.prefix)
        /// Whether the parent declares `type`, and then where, as " (file)".
        func place(of type: String) -> String? {
            guard let scan else { return "" }
            return scan.file(declaring: type).map { " (\(relative($0, to: root)))" }
        }
        let builder = "\(child.variable)Builder"
        var steps: [String] = []

        // Said where a dependency is provided: a service shared from the
        // app's component reaches every browser.
        let perUser = """
            A service holding one person's data (who is signed in, a cart) is shared from the session's
            component (NapkinApp's session scope), never the app's, which every browser shares.
            """
        if let place = place(of: "\(p)Component") {
            steps.append("""
                \(parent.name)'s component provides \(child.name)'s dependency\(place):
                    final class \(p)Component: …, \(c)Dependency
                """ + "\n" + perUser)
        } else {
            steps.append("""
                \(parent.name) has no component yet: add one and make it in \(p)Builder.build:
                    final class \(p)Component: Component<any \(p)Dependency>, \(c)Dependency, @unchecked Sendable {}
                    let component = \(p)Component(dependency: dependency)
                """ + "\n" + perUser)
        }

        let keep = """
                private let \(builder): \(c)Builder
                \(builder) = \(c)Builder(dependency: component)   // in its init, or made by \(p)Builder and passed in
            """
        let view = place(of: "\(p)ViewController")
        if let place = place(of: "\(p)Router") {
            steps.append("\(parent.name)'s router keeps \(child.name)'s builder\(place):\n" + keep)
        } else {
            let base = view == nil ? "Router<\(p)Interactor>" : "ViewableRouter<\(p)Interactor, \(p)ViewController>"
            steps.append("""
                \(parent.name) has no router of its own yet: subclass \(base) as \(p)Router,
                return it from \(p)Builder.build, and keep \(child.name)'s builder there:
                """ + "\n" + keep)
        }

        if headless {
            steps.append("""
                The router attaches \(child.name) for as long as \(parent.name) lives, in didLoad():
                    await attachChild(\(builder).build(listener: interactor))
                """)
            steps.append("""
                \(parent.name)'s interactor is \(child.name)'s listener\(place(of: "\(p)Interactor") ?? ""):
                    extension \(p)Interactor: \(c)Listener {
                        func \(child.variable)DidStart() async {}
                    }
                """)
        } else {
            steps.append("""
                The router attaches \(child.name) and shows it in a slot: in didLoad() to show it always, or in
                navigate(to:) for a page (WebRouting), and detaches it where it should go away:
                    await attachIfNeeded(in: "\(child.slot)") { \(builder).build() }
                    await detachChild(in: "\(child.slot)")
                """)
            steps.append("""
                \(parent.name)'s view shows the slot, inside body()\(view ?? ""):
                    \\(slot("\(child.slot)"))
                """)
        }

        let numbered = steps.enumerated().map { index, step in
            "\(index + 1). " + step.replacingOccurrences(of: "\n", with: "\n   ")
        }
        let edited = scan == nil ? "--parent P names the parent and its files" : "nothing of \(parent.name) was edited"
        return "To attach \(child.name) under \(parent.name) (\(edited)):\n\n" + numbered.joined(separator: "\n\n")
    }
}

/// `url`'s path below `root`, or its whole path.
func relative(_ url: URL, to root: URL) -> String {
    let (path, base) = (url.standardizedFileURL.path, root.standardizedFileURL.path)
    return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
}
