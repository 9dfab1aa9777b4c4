import Foundation
import Testing

/// The Security article's fuzzing table names every fuzz target there is,
/// and no other: a target added without a row (or a row left behind by a
/// removed target) fails here.
@Suite("Security article's fuzz table", .timeLimit(.minutes(1)))
struct FuzzTableTests {
    @Test("its rows are exactly Tests/Fuzz/Targets")
    func rowsMatchTargets() throws {
        let root = ArticleExamplesTests.root.appendingPathComponent("../..")
        let targets = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests/Fuzz/Targets").path)
            .filter { $0.hasSuffix(".swift") }
            .map { String($0.dropLast(".swift".count)) }
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/NapkinWeb/NapkinWeb.docc/Security.md"), encoding: .utf8)
        let rows = article.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| "), let name = line.dropFirst(2).split(separator: " ").first, name.hasSuffix("Fuzz") else {
                return nil
            }
            return String(name)
        }
        #expect(!targets.isEmpty)
        #expect(rows.sorted() == targets.sorted())
    }
}
