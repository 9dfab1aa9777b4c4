import Foundation
import Testing

/// A leaf screen of Rib House is one file of at most 50 lines of code
/// (blank lines and comments not counted), markup included: what napkin
/// asks of a screen, measured on the screens it ships.
@Suite("Rib House screen sizes", .timeLimit(.minutes(1)))
struct RibHouseScreenSizeTests {
    static let screens = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/RibHouse")

    @Test("a leaf screen is one file of at most 50 lines of code", arguments: ["LoggedOut", "PitBoard", "Announcements"])
    func leafIsSmall(screen: String) throws {
        let folder = Self.screens.appendingPathComponent(screen)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files == ["\(screen)Napkin.swift"], "\(screen): \(files.sorted())")
        let lines = try files.flatMap { file in
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        }
        let code = lines.filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("//")
        }
        #expect(code.count <= 50, "\(screen): \(code.count) lines of code in \(lines.count) lines")
    }
}
