import Foundation
import Testing

/// The README is the front door: every link it makes into the repository
/// (DocC articles, scripts, folders) leads to something that is there.
@Suite("README links", .timeLimit(.minutes(1)))
@MainActor
struct ReadmeLinksTests {
    @Test("every relative link in the README names a file or folder of the repository")
    func linksResolve() throws {
        let readme = try String(contentsOf: ReadmeCurlTests.readme, encoding: .utf8)
        let root = ReadmeCurlTests.readme.deletingLastPathComponent()
        let targets = readme.matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/).map { String($0.output.1) }
            .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") }
        #expect(targets.count >= 5, "the README links into the repository: \(targets)")
        let missing = targets.filter { !FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        #expect(missing.isEmpty, "links to nothing: \(missing)")
    }
}
