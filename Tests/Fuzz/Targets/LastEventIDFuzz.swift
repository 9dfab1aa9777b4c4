// fuzz-max-len: 64
@testable import NapkinHTTP

/// `Last-Event-ID` values: never trap, accept exactly 1–20 digits that fit
/// `UInt64` (spaces around allowed), and the number read is the number written.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let parsed = LastEventID.parse(value)

    var core = Array(value.utf8)[...]
    while core.first == UInt8(ascii: " ") { core.removeFirst() }
    while core.last == UInt8(ascii: " ") { core.removeLast() }
    let digitsOnly = !core.isEmpty && core.count <= 20 && core.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    let expected = digitsOnly ? UInt64(String(decoding: core, as: UTF8.self)) : nil
    require(parsed == expected, "\(show(value)) parsed as \(String(describing: parsed)), not \(String(describing: expected))")
    if let parsed {
        require(LastEventID.parse(String(parsed)) == parsed, "\(parsed) does not read back")
    }
    return 0
}
