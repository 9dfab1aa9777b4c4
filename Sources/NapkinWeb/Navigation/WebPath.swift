/// A page path as napkins see it: its segments, so each router can take the
/// first and hand the rest to its children.
public struct WebPath: Sendable, Hashable, CustomStringConvertible {
    /// The non-empty segments, decoded.
    public let segments: [String]

    /// The path of `string` (`/pit/3` → `["pit", "3"]`).
    public init(_ string: String) {
        segments = string.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// A path of the given segments.
    public init(segments: [String]) {
        self.segments = segments
    }

    /// `/`.
    public static let root = WebPath(segments: [])

    /// Whether this is `/`.
    public var isRoot: Bool { segments.isEmpty }

    /// The first segment, if any.
    public var first: String? { segments.first }

    /// The path after the first segment.
    public var rest: WebPath { WebPath(segments: Array(segments.dropFirst())) }

    /// The path as a string: `/pit/3`, or `/`.
    public var description: String { "/" + segments.joined(separator: "/") }
}
