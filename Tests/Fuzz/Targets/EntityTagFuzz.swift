// fuzz-max-len: 256
@testable import NapkinHTTP

/// `If-None-Match` and entity tags: never trap; every opaque part read holds
/// only etagc characters (no `"`, space, control or DEL); a tag or list read
/// back from its parts, written again, reads the same; a request matches
/// the tags it names, and nothing when it names none (but `*`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    func isEtagc(_ opaque: Substring) -> Bool {
        opaque.unicodeScalars.allSatisfy { $0.value == 0x21 || (0x23...0x7E).contains($0.value) || $0.value >= 0x80 }
    }

    if let opaque = EntityTag.opaque(value) {
        require(isEtagc(opaque), "\(show(value)) read an opaque part with a character no tag may hold")
        require(EntityTag.opaque("\"\(opaque)\"") == opaque, "\(show(value)): its tag written again reads differently")
    }
    if let tags = EntityTag.list(value) {
        require(tags.allSatisfy(isEtagc), "\(show(value)) read a tag with a character no tag may hold")
        let written = tags.map { "W/\"\($0)\"" }.joined(separator: ", ")
        require(EntityTag.list(written) == tags, "\(show(value)): its list written again reads differently")
    }

    // A request naming a tag matches that tag, weak or strong.
    let request = Request(method: .get, path: "/", headers: ["If-None-Match": value])
    let matchesOther = request.ifNoneMatch("\"napkin-1\"")
    if let first = EntityTag.list(value)?.first {
        require(request.ifNoneMatch("\"\(first)\""), "\(show(value)) does not match its own first tag")
    } else if matchesOther {
        require(Substring(value).trimmingSpaces == "*", "\(show(value)) is no list of tags, yet it matched")
    }
    return 0
}
