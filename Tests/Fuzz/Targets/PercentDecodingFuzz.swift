// fuzz-max-len: 512
@testable import NapkinHTTP

/// Percent-decoding of paths and form fields: never traps, and agrees with a
/// plain re-encoding of what it decoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let strict = try? URLEncoding.decode(bytes, plusIsSpace: false)
    let plus = try? URLEncoding.decode(bytes, plusIsSpace: true)

    // `+` as space is the same as replacing raw `+` first: escapes never hold a `+`.
    let spaced = bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
    require(plus == (try? URLEncoding.decode(spaced, plusIsSpace: false)), "'+' handling differs for \(bytes)")

    if let strict {
        require(strict.utf8.count <= bytes.count, "decoding grew \(bytes)")
        if !bytes.contains(UInt8(ascii: "%")) {
            require(Array(strict.utf8) == bytes, "text without escapes changed: \(bytes)")
        }
        let again = try? URLEncoding.decode(Array(percentEncode(strict.utf8).utf8), plusIsSpace: false)
        require(again == strict, "re-encoded \(show(strict)) decodes to \(again.map(show) ?? "nil")")
    } else {
        require(bytes.contains(UInt8(ascii: "%")) || String(validating: bytes, as: UTF8.self) == nil,
                "rejected valid text without escapes: \(bytes)")
    }

    // The lenient form (paths) takes a string: it gives the decoding, or the text as sent.
    let text = String(decoding: bytes, as: UTF8.self)
    let lenient = URLEncoding.decodeLenient(Substring(text).utf8)
    let expected = (try? URLEncoding.decode(Array(text.utf8), plusIsSpace: false)) ?? text
    require(lenient == expected, "lenient decoding of \(show(text)) gave \(show(lenient))")
    return 0
}
