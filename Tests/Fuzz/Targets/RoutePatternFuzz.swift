// fuzz-max-len: 512
@testable import NapkinHTTP

/// Route patterns against paths: never trap, and match exactly as a byte-for-byte
/// reading of the pattern would. Input: pattern, NUL, path.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = fuzzFields(fuzzBytes(data, size), count: 2)
    let patternText = String(decoding: fields[0], as: UTF8.self)
    let path = String(decoding: fields[1], as: UTF8.self)
    let pattern = RoutePattern(patternText)
    // Split by bytes, as a server must: a `/` is a separator whatever follows it.
    let components = path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }

    let matched = pattern.match(path: path)
    let expected = referenceMatch(pattern.segments, components)
    require(matched == expected, "\(show(patternText)) on \(show(path)) gave \(String(describing: matched)), not \(String(describing: expected))")
    for (name, value) in matched ?? [:] where name != "*" {
        require(!value.utf8.contains(UInt8(ascii: "/")), "parameter \(name) holds a '/': \(show(value))")
    }
    return 0
}
