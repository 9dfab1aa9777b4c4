import Foundation

/// Reads what a folder of Swift sources already holds, so nothing is
/// written over it and hints name the files that are there.
struct SourceScan {
    /// Every Swift file below the folder, with its text.
    let files: [(url: URL, text: String)]

    init(folder: URL) {
        let found = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        files = (found?.allObjects ?? []).compactMap { item in
            guard let url = item as? URL, url.pathExtension == "swift",
                let text = try? String(contentsOf: url, encoding: .utf8)
            else { return nil }
            return (url, text)
        }
    }

    /// The first file named `name`.
    func file(named name: String) -> URL? {
        files.first { $0.url.lastPathComponent == name }?.url
    }

    /// The first file that declares the type `type`.
    func file(declaring type: String) -> URL? {
        files.first { Self.declares(type, in: $0.text) }?.url
    }

    /// Whether `text` declares `type` (`class X`, `final actor X: …`,
    /// `protocol X`, …): the name after a declaring keyword, and whole.
    static func declares(_ type: String, in text: String) -> Bool {
        let keywords: Set<String> = ["class", "actor", "struct", "enum", "protocol", "typealias"]
        let isIdentifier = { (character: Character) in character.isLetter || character.isNumber || character == "_" }
        var rest = text[...]
        while let range = rest.range(of: type) {
            defer { rest = rest[range.upperBound...] }
            if let next = rest[range.upperBound...].first, isIdentifier(next) { continue }
            let before = text[..<range.lowerBound]
            guard let last = before.last, last == " " || last == "\t" else { continue }
            let word = before.reversed().drop { $0 == " " || $0 == "\t" }.prefix(while: isIdentifier).reversed()
            if keywords.contains(String(word)) { return true }
        }
        return false
    }
}
