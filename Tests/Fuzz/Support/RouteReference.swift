@testable import NapkinHTTP

/// What `segments` capture from path `components`, compared byte for byte:
/// the matching rules of `RoutePattern` written out the plainest way.
func referenceMatch(_ segments: [RoutePattern.Segment], _ components: [Substring]) -> [String: String]? {
    var parameters: [String: String] = [:]
    for (index, segment) in segments.enumerated() {
        switch segment {
        case .wildcard:
            parameters["*"] = components.dropFirst(index).joined(separator: "/")
            return parameters
        case .literal(let text):
            guard index < components.count, Array(components[index].utf8) == Array(text.utf8) else { return nil }
        case .parameter(let name):
            guard index < components.count else { return nil }
            parameters[name] = String(components[index])
        }
    }
    return segments.count == components.count ? parameters : nil
}
