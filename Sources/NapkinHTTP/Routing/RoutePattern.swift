/// A parsed route pattern such as `/api/users/:id` or `/files/*`.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard
    }

    let segments: [Segment]
    /// The first segment's bytes when it is a literal: a path whose first
    /// component differs is refused without ``match(path:)``.
    let firstLiteral: [UInt8]?

    init(_ pattern: String) {
        var segments: [Segment] = []
        for part in pattern.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "*" {
                segments.append(.wildcard)
                break
            } else if part.hasPrefix(":") {
                segments.append(.parameter(String(part.dropFirst())))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
        if case .literal(let text) = segments.first { firstLiteral = Array(text.utf8) } else { firstLiteral = nil }
    }

    /// The first component of `path` (leading `/`s skipped, up to the next
    /// `/`), as ``match(path:)`` reads it; empty when there is none.
    static func firstComponent(of path: String) -> Substring.UTF8View {
        let utf8 = path.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex, utf8[start] == UInt8(ascii: "/") { start = utf8.index(after: start) }
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        return utf8[start..<end]
    }

    /// Matches a path's components (split at the `/` byte, empty ones
    /// skipped); returns the captured parameters, or nil. Nothing is
    /// allocated for a path that does not match, nor for one without
    /// parameters.
    func match(path: String) -> [String: String]? {
        let utf8 = path.utf8
        var position = utf8.startIndex
        /// The next component's bytes, or nil past the last.
        func next() -> Substring.UTF8View? {
            while position < utf8.endIndex, utf8[position] == UInt8(ascii: "/") { position = utf8.index(after: position) }
            guard position < utf8.endIndex else { return nil }
            let start = position
            while position < utf8.endIndex, utf8[position] != UInt8(ascii: "/") { position = utf8.index(after: position) }
            return utf8[start..<position]
        }
        var parameters: [String: String] = [:]
        for segment in segments {
            switch segment {
            case .wildcard:
                var rest: [Substring] = []
                while let component = next() { rest.append(Substring(component)) }
                parameters["*"] = rest.joined(separator: "/")
                return parameters
            case .literal(let text):
                // Byte for byte: String equality would also let a canonically
                // equivalent spelling (`e` + U+0301 for `é`, U+212A for `K`) through.
                guard let component = next(), component.elementsEqual(text.utf8) else { return nil }
            case .parameter(let name):
                // Split at the byte, a component never holds a `/`, even where
                // `/` and a combining mark after it make one Character.
                guard let component = next() else { return nil }
                parameters[name] = String(Substring(component))
            }
        }
        return next() == nil ? parameters : nil
    }
}
