/// The head of one `multipart/form-data` part: its field name, the file
/// name when it is a file, and its declared content type.
public struct MultipartPartHead: Sendable, Equatable {
    /// The form field's name (`name` of `Content-Disposition`).
    public var name: String
    /// The file name exactly as the client sent it (`filename`), or nil for
    /// a plain field. Never a path to use: see ``UploadedFile/fileName``.
    public var fileName: String?
    /// The declared media type (`Content-Type`), lowercased, without
    /// parameters; `text/plain` when absent, as RFC 7578 says.
    public var contentType: String

    /// A part head from its parts.
    public init(name: String, fileName: String? = nil, contentType: String = "text/plain") {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
    }

    /// Parses the header fields of a part (lines separated by `CRLF`, without
    /// the blank line). A part without `Content-Disposition: form-data` and a
    /// field name is malformed.
    init(parsing bytes: ArraySlice<UInt8>) throws(MultipartParser.Malformed) {
        var name: String?
        var fileName: String?
        var contentType = "text/plain"
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else {
                throw MultipartParser.Malformed(reason: "a multipart part head has a line without a colon")
            }
            let field = line[..<colon].trimmingSpaces.lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            switch field {
            case "content-disposition":
                let parameters = Self.parameters(value)
                guard parameters.first?.name.lowercased() == "form-data" else {
                    throw MultipartParser.Malformed(reason: "a multipart part is not form-data")
                }
                for parameter in parameters.dropFirst() {
                    switch parameter.name.lowercased() {
                    case "name": name = parameter.value
                    case "filename": fileName = parameter.value
                    default: break
                    }
                }
            case "content-type":
                let type = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces.lowercased() } ?? ""
                if !type.isEmpty { contentType = type }
            default:
                break
            }
        }
        guard let name else { throw MultipartParser.Malformed(reason: "a multipart part has no field name") }
        self.init(name: name, fileName: fileName, contentType: contentType)
    }

    /// `token; a=b; c="d; e"` as `[("token", ""), ("a", "b"), ("c", "d; e")]`:
    /// semicolons inside quotes do not split, and `\` escapes in quotes.
    static func parameters(_ value: Substring) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var name = ""
        var current = ""
        var inName = true
        var quoted = false
        var escaped = false
        var wasQuoted = false
        func flush() {
            let n = Substring(inName ? current : name).trimmingSpaces
            let v = inName ? "" : wasQuoted ? current : String(Substring(current).trimmingSpaces)
            if !n.isEmpty { result.append((String(n), v)) }
            wasQuoted = false
            name = ""
            current = ""
            inName = true
        }
        for character in value {
            if quoted {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case ";": flush()
            case "=" where inName:
                name = current
                current = ""
                inName = false
            case "\"" where !inName:
                quoted = true
                wasQuoted = true
                current = String(Substring(current).trimmingSpaces)
            // Padding after a closing quote is not part of the value.
            case " " where wasQuoted, "\t" where wasQuoted: break
            default: current.append(character)
            }
        }
        flush()
        return result
    }
}
