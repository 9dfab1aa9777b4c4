// fuzz-max-len: 2048
@testable import NapkinHTTP

/// `application/x-www-form-urlencoded` bodies: never trap, and the fields parsed
/// from a body parse back identically from their plain encoding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = fuzzBytes(data, size)
    guard let fields = try? URLEncoding.parseForm(body) else { return 0 }
    let parts = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).count
    require(fields.count == parts, "\(fields.count) fields from \(parts) parts of \(body)")

    let encoded = fields.map { percentEncode($0.name.utf8) + "=" + percentEncode($0.value.utf8) }.joined(separator: "&")
    let again = try? URLEncoding.parseForm(Array(encoded.utf8))
    require(again.map { $0.map(\.name) == fields.map(\.name) && $0.map(\.value) == fields.map(\.value) } == true,
            "fields of \(body) do not survive re-encoding as \(show(encoded))")
    return 0
}
