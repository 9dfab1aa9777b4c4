extension Request {
    /// Whether the `Accept` field lists `mediaRange` (`text/html`, `text/*`,
    /// `*/*`): one of its comma-separated ranges is that range, compared
    /// without case, its parameters (`;q=0.9`) set aside. A request without
    /// the field lists nothing, and an empty range is never listed.
    ///
    /// Read on the field's bytes, without lowercased copies: a page view
    /// asks this two or three times.
    public func acceptFieldLists(_ mediaRange: String) -> Bool {
        var listed = false
        for field in headers where HTTPHeaders.same(field.name, "Accept") {
            var value = field.value, wanted = mediaRange
            value.withUTF8 { bytes in
                wanted.withUTF8 { wanted in
                    ASCIIBytes.forEachPart(of: bytes, separatedBy: UInt8(ascii: ",")) { range in
                        let type = range.lowerBound..<(range.first { bytes[$0] == UInt8(ascii: ";") } ?? range.upperBound)
                        let trimmed = ASCIIBytes.trimmingSpaces(type, in: bytes)
                        listed = !trimmed.isEmpty && ASCIIBytes.equalIgnoringCase(bytes.slice(trimmed), wanted)
                        return !listed
                    }
                }
            }
            if listed { return true }
        }
        return false
    }
}
