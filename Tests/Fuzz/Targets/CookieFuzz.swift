// fuzz-max-len: 1024
@testable import NapkinHTTP

/// `Cookie` request headers: never trap, and agree with a byte-level reading of
/// RFC 6265 §5.4 (`;` separates pairs, the first `=` splits name from value),
/// which is how browsers and proxies see the same header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let header = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let cookies = Cookie.parse(header: header)
    let expected = reference(Array(header.utf8))
    require(cookies == expected, "\(show(header)) parsed as \(cookies), not \(expected)")

    // One cookie looked up by name (a page's lookup) reads it the same way.
    var request = Request(method: .get, path: "/")
    request.headers.add(name: "Cookie", value: header)
    for name in Array(expected.keys) + ["", "missing"] {
        require(request.cookie(name) == expected[name], "\(show(header)): cookie(\(show(name))) is \(request.cookie(name) ?? "nil")")
    }

    // Quoted values come back unchanged from a header napkin's clients would send.
    let resent = cookies.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: "; ")
    require(Cookie.parse(header: resent) == cookies, "\(cookies) does not survive \(show(resent))")
    return 0
}

private func reference(_ header: [UInt8]) -> [String: String] {
    func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let b = bytes.first, b == 0x20 || b == 0x09 { bytes.removeFirst() }
        while let b = bytes.last, b == 0x20 || b == 0x09 { bytes.removeLast() }
        return bytes
    }
    var result: [String: String] = [:]
    for pair in header.split(separator: UInt8(ascii: ";")) {
        guard let eq = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
        let name = trimmed(pair[..<eq])
        var value = trimmed(pair[(eq + 1)...])
        if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
            value = value.dropFirst().dropLast()
        }
        if !name.isEmpty { result[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self) }
    }
    return result
}
