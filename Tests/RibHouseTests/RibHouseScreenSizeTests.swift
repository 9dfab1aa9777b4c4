import Foundation
import Testing

/// A leaf screen of Rib House is at most three files and 60 lines of code
/// (blank lines and comments not counted), markup included: what napkin
/// asks of a screen, measured on the screens it ships.
@Suite("Rib House screen sizes", .timeLimit(.minutes(1)))
struct RibHouseScreenSizeTests {
    static let screens = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/RibHouse")

    @Test("a leaf screen is at most 3 files and 60 lines of code", arguments: ["LoggedOut", "PitBoard"])
    func leafIsSmall(screen: String) throws {
        let folder = Self.screens.appendingPathComponent(screen)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count <= 3, "\(screen): \(files.sorted())")
        let lines = try files.flatMap { file in
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        }
        let code = lines.filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("//")
        }
        #expect(code.count <= 60, "\(screen): \(code.count) lines of code in \(lines.count) lines")
    }
}
