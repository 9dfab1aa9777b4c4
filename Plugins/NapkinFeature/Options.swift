/// What `napkin-feature` was asked for, read from its arguments.
struct Options {
    var name = ""
    var headless = false
    var split = false
    var parent: String?
    var target: String?
    var tests: String?
    var writesTest = true

    static let usage = """
        Usage: swift package --allow-writing-to-package-directory napkin-feature Name [options]

        Writes a new napkin, Name, into a target's folder as one file, Name/NameNapkin.swift:
        its dependency protocol and builder, its interactor (an actor), and its presenter and
        view (a counter with one action); with --split, as three files:
          Name/NameNapkinBuilder.swift         its dependency protocol and builder
          Name/NameNapkinInteractor.swift      its interactor
          Name/NameNapkinViewController.swift  its presenter and view
        and its Swift Testing suite, NameNapkinTests.swift, into a test target's folder. The
        test shows the napkin alone on the page of a minimal NapkinApp, posts its action through
        NapkinTesting's TestClient and checks the page changed; it passes as written:
          swift test --filter NameNapkinTests

        Options:
          --headless   a napkin without a view: builder and interactor only. Its router is
                       napkin's Router, and it tells a listener when it starts; its test
                       attaches it under a bare parent router.
          --split      a file per ring (two for a headless napkin) instead of one file.
          --parent P   also print the lines that attach the new napkin under the existing
                       napkin P (its component, router and view). P's files are never
                       edited: add the lines where they fit.
          --target T   the target to write into. Default: the package's first executable
                       target, in Package.swift's order.
          --tests T    the test target to write the test into. Default: the first test
                       target, in Package.swift's order, that depends on the target.
          --no-tests   write no test.
          -h, --help   print this help.

        Name is an identifier that starts with an upper-case ASCII letter (Tasting, PitBoard).
        Nothing is ever overwritten: a name whose folder, files or types exist is refused, as
        are unknown options and targets, and then nothing is written.
        """

    /// The options in `arguments`, or `nil` when they ask for the help.
    static func parse(_ arguments: [String]) throws(FeatureError) -> Options? {
        var options = Options()
        var names: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            // `--name=value` is read as `--name value`.
            let (flag, inline) = Self.split(argument)
            func value() throws(FeatureError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst(), !next.hasPrefix("-") else {
                    throw FeatureError("\(flag) needs a value (see --help)")
                }
                return next
            }
            switch flag {
            case "-h", "--help": return nil
            case "--headless": options.headless = true
            case "--no-tests": options.writesTest = false
            case "--split": options.split = true
            case "--parent": options.parent = try value()
            case "--target": options.target = try value()
            case "--tests": options.tests = try value()
            case _ where argument.hasPrefix("-"): throw FeatureError("unknown option \(flag) (see --help)")
            default: names.append(argument)
            }
            if inline != nil, ["-h", "--help", "--headless", "--no-tests", "--split"].contains(flag) {
                throw FeatureError("\(flag) takes no value")
            }
        }
        guard let name = names.first else { throw FeatureError("no napkin name given\n\n\(usage)") }
        guard names.count == 1 else { throw FeatureError("one napkin name at a time, not \(names.joined(separator: ", "))") }
        if options.tests != nil, !options.writesTest { throw FeatureError("--tests and --no-tests contradict each other") }
        try Self.check(name: name, what: "")
        if let parent = options.parent { try Self.check(name: parent, what: "--parent ") }
        options.name = name
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Refuses what cannot name a napkin: its name starts its types' names
    /// and its folder's, so it is an upper-case ASCII identifier.
    /// `what` starts the message (`"--parent "`).
    static func check(name: String, what: String) throws(FeatureError) {
        let letters = Array(name.unicodeScalars)
        guard let first = letters.first, ("A"..."Z").contains(first),
            letters.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
        else {
            throw FeatureError(
                "\(what)\"\(name)\" is not a napkin name: use a Swift identifier of ASCII letters, digits and _ "
                    + "that starts with an upper-case letter (Tasting, PitBoard)")
        }
        if name.hasSuffix("Napkin") {
            throw FeatureError("\(what)\"\(name)\" ends in Napkin, which every type name gets anyway: drop it")
        }
    }
}

/// Why nothing was written, as the user reads it.
struct FeatureError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
