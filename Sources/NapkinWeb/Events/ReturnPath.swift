/// Where a plain browser goes back to after a form post: only a path on
/// this site, never another host (`//evil`, `/\evil`, `https://…`).
enum ReturnPath {
    static func sanitize(_ candidate: String?) -> String {
        guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
            candidate.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { return "/" }
        return candidate
    }
}
