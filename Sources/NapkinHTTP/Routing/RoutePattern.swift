/// A parsed route pattern such as `/api/users/:id` or `/files/*`.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard
    }

    let segments: [Segment]

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
    }

    /// Matches path components; returns the captured parameters, or nil.
    func match(_ components: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        var index = 0
        for segment in segments {
            switch segment {
            case .wildcard:
                parameters["*"] = components[index...].joined(separator: "/")
                return parameters
            case .literal(let text):
                // Byte for byte: String equality would also let a canonically
                // equivalent spelling (`e` + U+0301 for `é`, U+212A for `K`) through.
                guard index < components.count, components[index].utf8.elementsEqual(text.utf8) else { return nil }
            case .parameter(let name):
                // A component split off as Characters can still hold a `/` byte
                // (`/` + U+0301 is one Character); a parameter never may.
                guard index < components.count, !components[index].utf8.contains(UInt8(ascii: "/")) else { return nil }
                parameters[name] = String(components[index])
            }
            index += 1
        }
        return index == components.count ? parameters : nil
    }
}
