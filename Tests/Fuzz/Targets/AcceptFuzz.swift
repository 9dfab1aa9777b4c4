// fuzz-max-len: 512
@testable import NapkinHTTP

/// `Accept` fields: `acceptFieldLists` never traps, and agrees with a plain
/// byte-level reading: ranges are split at `,`, cut at `;`, trimmed of
/// spaces and tabs, and compared with ASCII letters folded; an empty range
/// is never listed. Asked for the ranges napkin asks for and for every
/// range the field itself holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let field = String(decoding: bytes, as: UTF8.self)
    var request = Request(method: .get, path: "/")
    request.headers.add(name: "Accept", value: field)
    let ranges = reference(Array(field.utf8))
    let asked = ["text/html", "*/*", "text/*", "application/json", ""] + ranges.map { String(decoding: $0, as: UTF8.self) }
    for wanted in asked {
        let expected = !wanted.isEmpty && ranges.contains { folded($0) == folded(Array(wanted.utf8)) }
        require(request.acceptFieldLists(wanted) == expected, "\(show(field)) lists \(show(wanted)): expected \(expected)")
    }
    return 0
}

/// The field's media ranges, each without parameters and trimmed.
private func reference(_ field: [UInt8]) -> [[UInt8]] {
    field.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { part in
        var range = part.prefix { $0 != UInt8(ascii: ";") }
        while let b = range.first, b == 0x20 || b == 0x09 { range.removeFirst() }
        while let b = range.last, b == 0x20 || b == 0x09 { range.removeLast() }
        return Array(range)
    }.filter { !$0.isEmpty }
}

private func folded(_ bytes: [UInt8]) -> [UInt8] {
    bytes.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
}
