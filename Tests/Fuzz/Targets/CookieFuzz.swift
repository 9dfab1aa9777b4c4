// fuzz-max-len: 1024
@testable import NapkinHTTP

/// `Cookie` request headers: never trap, and agree with a byte-level reading of
/// RFC 6265 §5.4 (`;` separates pairs, the first `=` splits name from value),
/// which is how browsers and proxies see the same header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let header = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let cookies = Cookie.parse(header: header)
    let pairs = referencePairs(Array(header.utf8))
    var expected: [String: String] = [:]
    for (name, value) in pairs { expected[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self) }
    require(cookies == expected, "\(show(header)) parsed as \(cookies), not \(expected)")

    // One cookie looked up by name (a page's lookup) finds the last pair
    // with those very bytes. (The dictionary above folds names that are
    // canonically equivalent, as `String` keys do; the wire does not.)
    var request = Request(method: .get, path: "/")
    request.headers.add(name: "Cookie", value: header)
    for name in pairs.map(\.name) + [[], Array("missing".utf8)] {
        let found = pairs.last { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
        let asked = String(decoding: name, as: UTF8.self)
        require(request.cookie(asked) == found, "\(show(header)): cookie(\(show(asked))) is \(request.cookie(asked) ?? "nil")")
    }

    // Quoted values come back unchanged from a header napkin's clients would send.
    let resent = cookies.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: "; ")
    require(Cookie.parse(header: resent) == cookies, "\(cookies) does not survive \(show(resent))")
    return 0
}

/// The header's pairs with a name, in order, as bytes.
private func referencePairs(_ header: [UInt8]) -> [(name: [UInt8], value: [UInt8])] {
    func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let b = bytes.first, b == 0x20 || b == 0x09 { bytes.removeFirst() }
        while let b = bytes.last, b == 0x20 || b == 0x09 { bytes.removeLast() }
        return bytes
    }
    var result: [(name: [UInt8], value: [UInt8])] = []
    for pair in header.split(separator: UInt8(ascii: ";")) {
        guard let eq = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
        let name = trimmed(pair[..<eq])
        var value = trimmed(pair[(eq + 1)...])
        if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
            value = value.dropFirst().dropLast()
        }
        if !name.isEmpty { result.append((Array(name), Array(value))) }
    }
    return result
}
