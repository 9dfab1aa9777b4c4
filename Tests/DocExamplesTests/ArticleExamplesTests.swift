import Foundation
import Testing

/// The DocC articles' Swift examples: the copies in `ArticleExamples/` match
/// the articles' Swift blocks (they compile, being part of this target), and
/// every Swift block of those articles is either copied or named here as a
/// fragment that cannot compile on its own.
@Suite("Articles' Swift examples", .timeLimit(.minutes(1)))
struct ArticleExamplesTests {
    /// An article, the copies of its Swift blocks, and the blocks left
    /// uncompiled. Blocks are numbered from 1, in the article's order.
    struct Article: Sendable, CustomTestStringConvertible {
        /// The article, from `Sources/`.
        let path: String
        /// Each copy in `ArticleExamples/`, with the blocks it holds in the
        /// copy's order (one after another, the copy's wrapper lines between).
        let copies: [(file: String, blocks: [Int])]
        /// The blocks no copy holds, and why.
        let fragments: [Int: String]

        var testDescription: String { path }
    }

    static let articles = [
        Article(
            path: "NapkinWeb/NapkinWeb.docc/GettingStarted.md",
            copies: [("GettingStartedApp.swift", [2]), ("GettingStartedMain.swift", [3]), ("GettingStartedTests.swift", [5])],
            fragments: [1: "Package.swift", 4: "the test's imports, with the app's module"]),
        Article(
            path: "napkin/napkin.docc/TheRings.md",
            copies: [("TheRingsLeaf.swift", [1, 2, 3, 4])],
            fragments: [5: "a parent's component", 6: "a parent router's didLoad()", 7: "Rib House's root builder", 8: "Rib House's dependency protocols", 9: "Rib House's session scope"]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/RoutingAndNavigation.md",
            copies: [("RoutingAndNavigation.swift", [1, 2])],
            fragments: [3: "a case of navigate(to:)", 4: "Rib House's root router", 5: "a presenter's extension"]),
        Article(
            path: "napkin/napkin.docc/ComingFromIOS.md",
            copies: [("ComingFromIOSTally.swift", [1])],
            fragments: [2: "an app's start-up, with a root builder of its own"]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/FormsAndValidation.md",
            copies: [("FormsAndValidation.swift", [1, 2, 3]), ("FormsAndValidationFields.swift", [4, 5])],
            fragments: [:]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/Uploads.md",
            copies: [("Uploads.swift", [1])],
            fragments: [:]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/Deploying.md",
            copies: [("DeployingServe.swift", [1])],
            fragments: [2: "an app's main.swift, with its components", 3: "NapkinRedis, which this target does not build",
                        4: "LeasedWork around an app's service", 5: "the end of main.swift"]),
        Article(
            path: "NapkinStorage/NapkinStorage.docc/WhoIsHere.md",
            copies: [("WhoIsHere.swift", [1])],
            fragments: [:]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/Dashboard.md",
            copies: [("Dashboard.swift", [1])],
            fragments: [:]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/Metrics.md",
            copies: [("Metrics.swift", [1, 2])],
            fragments: [:]),
        Article(
            path: "NapkinWeb/NapkinWeb.docc/Security.md",
            copies: [],
            fragments: [1: "a route of an app's router"]),
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test("the copies match their articles' Swift blocks, line for line", arguments: articles)
    func copiesMatchTheArticle(article: Article) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("../../Sources/\(article.path)"), encoding: .utf8)
        let blocks = Self.swiftBlocks(text)
        for (file, numbers) in article.copies {
            let copy = try String(contentsOf: Self.root.appendingPathComponent("ArticleExamples/\(file)"), encoding: .utf8)
            let expected = try numbers.flatMap { number in
                try #require(blocks.indices.contains(number - 1), "\(article.path) has no Swift block \(number)")
                return Self.lines(blocks[number - 1])
            }
            #expect(Self.lines(copy, droppingWrapper: true) == expected, "\(file) differs from blocks \(numbers) of \(article.path)")
        }
        let copied = Set(article.copies.flatMap(\.blocks))
        #expect(copied.isDisjoint(with: article.fragments.keys), "a block is both copied and a fragment")
        let unaccounted = Set(1...blocks.count).subtracting(copied).subtracting(article.fragments.keys)
        #expect(unaccounted.isEmpty, "Swift blocks \(unaccounted.sorted()) of \(article.path) are neither copied nor fragments")
    }

    /// The text of each ```swift block, in order.
    static func swiftBlocks(_ text: String) -> [Substring] {
        var blocks: [Substring] = []
        var rest = text[...]
        while let start = rest.range(of: "```swift\n"), let end = rest.range(of: "\n```", range: start.upperBound..<rest.endIndex) {
            blocks.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return blocks
    }

    /// Non-empty lines, trimmed; the copy's markers and wrapper lines dropped.
    static func lines(_ text: some StringProtocol, droppingWrapper: Bool = false) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && !(droppingWrapper && (line.hasSuffix("// wrapper") || line.hasPrefix("// Article:")))
        }
    }
}
