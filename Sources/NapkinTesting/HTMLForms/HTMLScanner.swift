/// A small, tolerant HTML tag scanner: enough to read napkin's own pages
/// in tests (tags, quoted attributes, the text of buttons, textareas and links).
enum HTMLScanner {
    struct Tag {
        let name: String
        let attributes: [String: String]
        /// The text up to the matching close tag, for `button`, `textarea` and `a`.
        let content: String?
    }

    static func tags(in markup: Substring) -> [Tag] {
        var tags: [Tag] = []
        var index = markup.startIndex
        while let open = markup[index...].firstIndex(of: "<") {
            guard let close = markup[open...].firstIndex(of: ">") else { break }
            let inside = markup[markup.index(after: open)..<close]
            index = markup.index(after: close)
            guard let first = inside.first, first.isLetter else { continue }
            let nameEnd = inside.firstIndex { $0 == " " || $0 == "\n" || $0 == "/" } ?? inside.endIndex
            let name = inside[..<nameEnd].lowercased()
            let attributes = parseAttributes(inside[nameEnd...])
            var content: String?
            if name == "button" || name == "textarea" || name == "a", let end = markup[index...].range(of: "</\(name)>") {
                content = decodeEntities(stripTags(markup[index..<end.lowerBound])).trimmingWhitespace()
                index = end.upperBound
            }
            tags.append(Tag(name: name, attributes: attributes, content: content))
        }
        return tags
    }

    private static func parseAttributes(_ text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "/" }
            guard !rest.isEmpty else { break }
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == " " || $0 == "\n" || $0 == "/" } ?? rest.endIndex
            let name = rest[..<nameEnd].lowercased()
            rest = rest[nameEnd...]
            guard rest.first == "=" else {
                attributes[name] = ""
                continue
            }
            rest = rest.dropFirst()
            if let quote = rest.first, quote == "\"" || quote == "'" {
                rest = rest.dropFirst()
                let valueEnd = rest.firstIndex(of: quote) ?? rest.endIndex
                attributes[name] = decodeEntities(rest[..<valueEnd])
                rest = valueEnd < rest.endIndex ? rest[rest.index(after: valueEnd)...] : rest[valueEnd...]
            } else {
                let valueEnd = rest.firstIndex { $0 == " " || $0 == "\n" } ?? rest.endIndex
                attributes[name] = decodeEntities(rest[..<valueEnd])
                rest = rest[valueEnd...]
            }
        }
        return attributes
    }

    static func stripTags(_ text: Substring) -> Substring {
        var result = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { result.append(character) }
        }
        return result[...]
    }

    /// Decodes the entities napkin's escaping produces, plus numeric ones.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            case "nbsp": result += "\u{a0}"
            default:
                if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                    result.unicodeScalars.append(scalar)
                } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "&\(entity);"
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        let text = String(self)
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
            let end = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[start...end])
    }
}
