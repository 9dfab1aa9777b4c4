/// Where a plain browser goes back to after a form post: only a path on
/// this site, never another host (`//evil`, `/\evil`, `https://…`).
enum ReturnPath {
    /// The longest way back, in UTF-8 bytes: a redirect's head (with the
    /// security headers and a cookie) must fit the connection's memory pool.
    static let maxBytes = 2048

    static func sanitize(_ candidate: String?) -> String {
        guard let candidate, candidate.utf8.count <= maxBytes, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
            candidate.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { return "/" }
        return candidate
    }
}
