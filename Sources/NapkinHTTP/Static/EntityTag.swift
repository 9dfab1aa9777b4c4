extension Request {
    /// Whether the request's `If-None-Match` names the version whose entity
    /// tag is `etag` (RFC 9110 §13.1.2): the field is `*`, or lists `etag`
    /// under weak comparison (`W/"x"` matches `"x"`), several lines counting
    /// as one list. A field that is not such a list does not match; a `GET`
    /// or `HEAD` that matches is answered `304 Not Modified`.
    ///
    /// ```swift
    /// if request.ifNoneMatch(etag) { return Response(status: .notModified, headers: ["ETag": etag]) }
    /// ```
    public func ifNoneMatch(_ etag: String) -> Bool {
        let fields = headers.values(for: "If-None-Match")
        guard !fields.isEmpty, let current = EntityTag.opaque(etag) else { return false }
        let list = fields.joined(separator: ",")
        if Substring(list).trimmingSpaces == "*" { return true }
        return EntityTag.list(list)?.contains(current) ?? false
    }
}

/// Entity tags (RFC 9110 §8.8.3): `"opaque"` or `W/"opaque"`, where the
/// opaque part may hold any visible character but `"` (commas included).
enum EntityTag {
    /// The opaque part of one entity tag (weak or strong), or nil when
    /// `tag` is not one.
    static func opaque(_ tag: String) -> Substring? {
        var rest = Substring(tag).trimmingSpaces
        guard let opaque = next(&rest), rest.isEmpty else { return nil }
        return opaque
    }

    /// The opaque parts of a comma-separated list of entity tags (empty
    /// elements allowed, as in every HTTP list), or nil when it is not one.
    static func list(_ field: String) -> [Substring]? {
        var rest = Substring(field)
        var tags: [Substring] = []
        while true {
            while let first = rest.first, first == "," || first == " " || first == "\t" { rest.removeFirst() }
            if rest.isEmpty { return tags }
            guard let tag = next(&rest) else { return nil }
            tags.append(tag)
            while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
            guard rest.isEmpty || rest.first == "," else { return nil }
        }
    }

    /// Reads one entity tag from the front of `rest`; its opaque part.
    private static func next(_ rest: inout Substring) -> Substring? {
        if rest.hasPrefix("W/") { rest.removeFirst(2) }
        guard rest.first == "\"" else { return nil }
        let opening = rest.startIndex
        guard let closing = rest[rest.index(after: opening)...].firstIndex(of: "\"") else { return nil }
        let opaque = rest[rest.index(after: opening)..<closing]
        // etagc: %x21 / %x23-7E / obs-text; no spaces, controls or DEL.
        guard opaque.unicodeScalars.allSatisfy({ $0.value == 0x21 || (0x23...0x7E).contains($0.value) || $0.value >= 0x80 })
        else { return nil }
        rest = rest[rest.index(after: closing)...]
        return opaque
    }
}
