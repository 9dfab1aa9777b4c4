// fuzz-max-len: 1024
@testable import NapkinHTTP

/// Request targets (`/path?query`) as the server splits them: never traps, the
/// path is the target's bytes before `?` and `#`, and both the path and the query
/// survive a re-encoding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let target = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let (raw, path, query) = Request.parseTarget(target)

    let bytes = Array(target.utf8)
    var rawBytes = bytes.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
    rawBytes = rawBytes.split(separator: UInt8(ascii: "#"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
    require(Array(raw.utf8) == Array(rawBytes), "raw path of \(show(target)) is \(show(raw))")
    require(path == URLEncoding.decodeLenient(Substring(raw).utf8), "path of \(show(target)) is \(show(path))")

    // Whatever was decoded comes back unchanged from its plain encoding.
    if (try? URLEncoding.decode(Array(raw.utf8), plusIsSpace: false)) != nil {
        let again = Request.parseTarget(percentEncode(path.utf8)).path
        require(again == path, "path \(show(path)) re-encoded parses as \(show(again))")
    }
    let encodedQuery = query.map { percentEncode($0.key.utf8) + "=" + percentEncode($0.value.utf8) }.joined(separator: "&")
    let again = Request.parseTarget("/?" + encodedQuery).query
    require(again == query, "query of \(show(target)) does not survive re-encoding")
    return 0
}
